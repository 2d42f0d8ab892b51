// Original file: switchyard/admin/v1/daemon.proto


export interface BackupChunk {
  'data'?: (Buffer | Uint8Array | string);
}

export interface BackupChunk__Output {
  'data': (Buffer);
}
