// Original file: switchyard/admin/v1/daemon.proto


export interface BackupRequest {
}

export interface BackupRequest__Output {
}
