// Original file: switchyard/admin/v1/daemon.proto


export interface GetStatusRequest {
}

export interface GetStatusRequest__Output {
}
