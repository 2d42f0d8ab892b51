// Original file: switchyard/admin/v1/daemon.proto


export interface GetConfigRequest {
}

export interface GetConfigRequest__Output {
}
