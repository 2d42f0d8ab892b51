// Original file: switchyard/admin/v1/providers.proto

import type { Long } from '@grpc/proto-loader';

export interface UsageRow {
  'day'?: (string);
  'provider'?: (string);
  'model'?: (string);
  'calls'?: (number | string | Long);
  'failures'?: (number | string | Long);
  'input_tokens'?: (number | string | Long);
  'output_tokens'?: (number | string | Long);
  'cost_usd'?: (number | string);
  'latency_ms_avg'?: (number | string | Long);
}

export interface UsageRow__Output {
  'day': (string);
  'provider': (string);
  'model': (string);
  'calls': (string);
  'failures': (string);
  'input_tokens': (string);
  'output_tokens': (string);
  'cost_usd': (number);
  'latency_ms_avg': (string);
}
