// Original file: switchyard/admin/v1/webhooks.proto


export interface RecoverDeliveriesResponse {
  'recovered'?: (number);
}

export interface RecoverDeliveriesResponse__Output {
  'recovered': (number);
}
