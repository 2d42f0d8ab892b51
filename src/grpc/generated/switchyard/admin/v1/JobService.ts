// Original file: switchyard/admin/v1/jobs.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CancelJobRequest as _switchyard_admin_v1_CancelJobRequest, CancelJobRequest__Output as _switchyard_admin_v1_CancelJobRequest__Output } from '../../../switchyard/admin/v1/CancelJobRequest.js';
import type { CreateJobRequest as _switchyard_admin_v1_CreateJobRequest, CreateJobRequest__Output as _switchyard_admin_v1_CreateJobRequest__Output } from '../../../switchyard/admin/v1/CreateJobRequest.js';
import type { GetJobRequest as _switchyard_admin_v1_GetJobRequest, GetJobRequest__Output as _switchyard_admin_v1_GetJobRequest__Output } from '../../../switchyard/admin/v1/GetJobRequest.js';
import type { Job as _switchyard_admin_v1_Job, Job__Output as _switchyard_admin_v1_Job__Output } from '../../../switchyard/admin/v1/Job.js';
import type { ListJobsRequest as _switchyard_admin_v1_ListJobsRequest, ListJobsRequest__Output as _switchyard_admin_v1_ListJobsRequest__Output } from '../../../switchyard/admin/v1/ListJobsRequest.js';
import type { ListJobsResponse as _switchyard_admin_v1_ListJobsResponse, ListJobsResponse__Output as _switchyard_admin_v1_ListJobsResponse__Output } from '../../../switchyard/admin/v1/ListJobsResponse.js';

export interface JobServiceClient extends grpc.Client {
  CancelJob(argument: _switchyard_admin_v1_CancelJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  CancelJob(argument: _switchyard_admin_v1_CancelJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  CancelJob(argument: _switchyard_admin_v1_CancelJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  CancelJob(argument: _switchyard_admin_v1_CancelJobRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  cancelJob(argument: _switchyard_admin_v1_CancelJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  cancelJob(argument: _switchyard_admin_v1_CancelJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  cancelJob(argument: _switchyard_admin_v1_CancelJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  cancelJob(argument: _switchyard_admin_v1_CancelJobRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  
  CreateJob(argument: _switchyard_admin_v1_CreateJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  CreateJob(argument: _switchyard_admin_v1_CreateJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  CreateJob(argument: _switchyard_admin_v1_CreateJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  CreateJob(argument: _switchyard_admin_v1_CreateJobRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  createJob(argument: _switchyard_admin_v1_CreateJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  createJob(argument: _switchyard_admin_v1_CreateJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  createJob(argument: _switchyard_admin_v1_CreateJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  createJob(argument: _switchyard_admin_v1_CreateJobRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  
  GetJob(argument: _switchyard_admin_v1_GetJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  GetJob(argument: _switchyard_admin_v1_GetJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  GetJob(argument: _switchyard_admin_v1_GetJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  GetJob(argument: _switchyard_admin_v1_GetJobRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  getJob(argument: _switchyard_admin_v1_GetJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  getJob(argument: _switchyard_admin_v1_GetJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  getJob(argument: _switchyard_admin_v1_GetJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  getJob(argument: _switchyard_admin_v1_GetJobRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Job__Output>): grpc.ClientUnaryCall;
  
  ListJobs(argument: _switchyard_admin_v1_ListJobsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  ListJobs(argument: _switchyard_admin_v1_ListJobsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  ListJobs(argument: _switchyard_admin_v1_ListJobsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  ListJobs(argument: _switchyard_admin_v1_ListJobsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  listJobs(argument: _switchyard_admin_v1_ListJobsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  listJobs(argument: _switchyard_admin_v1_ListJobsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  listJobs(argument: _switchyard_admin_v1_ListJobsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  listJobs(argument: _switchyard_admin_v1_ListJobsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListJobsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface JobServiceHandlers extends grpc.UntypedServiceImplementation {
  CancelJob: grpc.handleUnaryCall<_switchyard_admin_v1_CancelJobRequest__Output, _switchyard_admin_v1_Job>;
  
  CreateJob: grpc.handleUnaryCall<_switchyard_admin_v1_CreateJobRequest__Output, _switchyard_admin_v1_Job>;
  
  GetJob: grpc.handleUnaryCall<_switchyard_admin_v1_GetJobRequest__Output, _switchyard_admin_v1_Job>;
  
  ListJobs: grpc.handleUnaryCall<_switchyard_admin_v1_ListJobsRequest__Output, _switchyard_admin_v1_ListJobsResponse>;
  
}

export interface JobServiceDefinition extends grpc.ServiceDefinition {
  CancelJob: MethodDefinition<_switchyard_admin_v1_CancelJobRequest, _switchyard_admin_v1_Job, _switchyard_admin_v1_CancelJobRequest__Output, _switchyard_admin_v1_Job__Output>
  CreateJob: MethodDefinition<_switchyard_admin_v1_CreateJobRequest, _switchyard_admin_v1_Job, _switchyard_admin_v1_CreateJobRequest__Output, _switchyard_admin_v1_Job__Output>
  GetJob: MethodDefinition<_switchyard_admin_v1_GetJobRequest, _switchyard_admin_v1_Job, _switchyard_admin_v1_GetJobRequest__Output, _switchyard_admin_v1_Job__Output>
  ListJobs: MethodDefinition<_switchyard_admin_v1_ListJobsRequest, _switchyard_admin_v1_ListJobsResponse, _switchyard_admin_v1_ListJobsRequest__Output, _switchyard_admin_v1_ListJobsResponse__Output>
}
