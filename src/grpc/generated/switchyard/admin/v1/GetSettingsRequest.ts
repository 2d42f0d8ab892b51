// Original file: switchyard/admin/v1/settings.proto


export interface GetSettingsRequest {
  'organization'?: (string);
}

export interface GetSettingsRequest__Output {
  'organization': (string);
}
