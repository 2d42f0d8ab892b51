// Original file: switchyard/admin/v1/providers.proto


export interface ListProvidersRequest {
}

export interface ListProvidersRequest__Output {
}
