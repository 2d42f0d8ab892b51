// Original file: switchyard/admin/v1/workflows.proto


export interface WorkflowRunArtifact {
  'asset_id'?: (string);
  'filename'?: (string);
  'content_type'?: (string);
  'download_url'?: (string);
  'download_url_expires_at'?: (string);
  'media_type'?: (string);
  'bytes'?: (number);
}

export interface WorkflowRunArtifact__Output {
  'asset_id': (string);
  'filename': (string);
  'content_type': (string);
  'download_url': (string);
  'download_url_expires_at': (string);
  'media_type': (string);
  'bytes': (number);
}
