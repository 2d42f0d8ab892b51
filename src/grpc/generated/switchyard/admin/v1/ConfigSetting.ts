// Original file: switchyard/admin/v1/daemon.proto


export interface ConfigSetting {
  'name'?: (string);
  'value'?: (string);
  'source'?: (string);
  'secret'?: (boolean);
  'flag'?: (string);
  '_value'?: "value";
  '_flag'?: "flag";
}

export interface ConfigSetting__Output {
  'name': (string);
  'value'?: (string);
  'source': (string);
  'secret': (boolean);
  'flag'?: (string);
  '_value'?: "value";
  '_flag'?: "flag";
}
