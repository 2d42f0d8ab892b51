// Original file: switchyard/admin/v1/daemon.proto


export interface DoctorRequest {
}

export interface DoctorRequest__Output {
}
