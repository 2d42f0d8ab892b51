// Original file: switchyard/admin/v1/jobs.proto


export interface JobArtifact {
  'asset_id'?: (string);
  'filename'?: (string);
  'media_type'?: (string);
  'bytes'?: (number);
  'download_url'?: (string);
  'download_url_expires_at'?: (string);
  'content_type'?: (string);
}

export interface JobArtifact__Output {
  'asset_id': (string);
  'filename': (string);
  'media_type': (string);
  'bytes': (number);
  'download_url': (string);
  'download_url_expires_at': (string);
  'content_type': (string);
}
