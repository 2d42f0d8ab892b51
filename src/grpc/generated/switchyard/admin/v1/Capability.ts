// Original file: switchyard/admin/v1/providers.proto


export interface Capability {
  'modality'?: (string);
  'estimated_cost_per_request'?: (number | string);
}

export interface Capability__Output {
  'modality': (string);
  'estimated_cost_per_request': (number);
}
