// Original file: switchyard/admin/v1/workflows.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AnswerInputRequest as _switchyard_admin_v1_AnswerInputRequest, AnswerInputRequest__Output as _switchyard_admin_v1_AnswerInputRequest__Output } from '../../../switchyard/admin/v1/AnswerInputRequest.js';
import type { CreateScheduleRequest as _switchyard_admin_v1_CreateScheduleRequest, CreateScheduleRequest__Output as _switchyard_admin_v1_CreateScheduleRequest__Output } from '../../../switchyard/admin/v1/CreateScheduleRequest.js';
import type { CreateWorkflowRequest as _switchyard_admin_v1_CreateWorkflowRequest, CreateWorkflowRequest__Output as _switchyard_admin_v1_CreateWorkflowRequest__Output } from '../../../switchyard/admin/v1/CreateWorkflowRequest.js';
import type { DeleteScheduleRequest as _switchyard_admin_v1_DeleteScheduleRequest, DeleteScheduleRequest__Output as _switchyard_admin_v1_DeleteScheduleRequest__Output } from '../../../switchyard/admin/v1/DeleteScheduleRequest.js';
import type { DeleteWorkflowRequest as _switchyard_admin_v1_DeleteWorkflowRequest, DeleteWorkflowRequest__Output as _switchyard_admin_v1_DeleteWorkflowRequest__Output } from '../../../switchyard/admin/v1/DeleteWorkflowRequest.js';
import type { GetRunOutputRequest as _switchyard_admin_v1_GetRunOutputRequest, GetRunOutputRequest__Output as _switchyard_admin_v1_GetRunOutputRequest__Output } from '../../../switchyard/admin/v1/GetRunOutputRequest.js';
import type { GetRunRequest as _switchyard_admin_v1_GetRunRequest, GetRunRequest__Output as _switchyard_admin_v1_GetRunRequest__Output } from '../../../switchyard/admin/v1/GetRunRequest.js';
import type { GetWorkflowRequest as _switchyard_admin_v1_GetWorkflowRequest, GetWorkflowRequest__Output as _switchyard_admin_v1_GetWorkflowRequest__Output } from '../../../switchyard/admin/v1/GetWorkflowRequest.js';
import type { ListRunEventsRequest as _switchyard_admin_v1_ListRunEventsRequest, ListRunEventsRequest__Output as _switchyard_admin_v1_ListRunEventsRequest__Output } from '../../../switchyard/admin/v1/ListRunEventsRequest.js';
import type { ListRunEventsResponse as _switchyard_admin_v1_ListRunEventsResponse, ListRunEventsResponse__Output as _switchyard_admin_v1_ListRunEventsResponse__Output } from '../../../switchyard/admin/v1/ListRunEventsResponse.js';
import type { ListRunsRequest as _switchyard_admin_v1_ListRunsRequest, ListRunsRequest__Output as _switchyard_admin_v1_ListRunsRequest__Output } from '../../../switchyard/admin/v1/ListRunsRequest.js';
import type { ListRunsResponse as _switchyard_admin_v1_ListRunsResponse, ListRunsResponse__Output as _switchyard_admin_v1_ListRunsResponse__Output } from '../../../switchyard/admin/v1/ListRunsResponse.js';
import type { ListSchedulesRequest as _switchyard_admin_v1_ListSchedulesRequest, ListSchedulesRequest__Output as _switchyard_admin_v1_ListSchedulesRequest__Output } from '../../../switchyard/admin/v1/ListSchedulesRequest.js';
import type { ListSchedulesResponse as _switchyard_admin_v1_ListSchedulesResponse, ListSchedulesResponse__Output as _switchyard_admin_v1_ListSchedulesResponse__Output } from '../../../switchyard/admin/v1/ListSchedulesResponse.js';
import type { ListWorkflowsRequest as _switchyard_admin_v1_ListWorkflowsRequest, ListWorkflowsRequest__Output as _switchyard_admin_v1_ListWorkflowsRequest__Output } from '../../../switchyard/admin/v1/ListWorkflowsRequest.js';
import type { ListWorkflowsResponse as _switchyard_admin_v1_ListWorkflowsResponse, ListWorkflowsResponse__Output as _switchyard_admin_v1_ListWorkflowsResponse__Output } from '../../../switchyard/admin/v1/ListWorkflowsResponse.js';
import type { RunActionRequest as _switchyard_admin_v1_RunActionRequest, RunActionRequest__Output as _switchyard_admin_v1_RunActionRequest__Output } from '../../../switchyard/admin/v1/RunActionRequest.js';
import type { RunWorkflowRequest as _switchyard_admin_v1_RunWorkflowRequest, RunWorkflowRequest__Output as _switchyard_admin_v1_RunWorkflowRequest__Output } from '../../../switchyard/admin/v1/RunWorkflowRequest.js';
import type { Workflow as _switchyard_admin_v1_Workflow, Workflow__Output as _switchyard_admin_v1_Workflow__Output } from '../../../switchyard/admin/v1/Workflow.js';
import type { WorkflowRun as _switchyard_admin_v1_WorkflowRun, WorkflowRun__Output as _switchyard_admin_v1_WorkflowRun__Output } from '../../../switchyard/admin/v1/WorkflowRun.js';
import type { WorkflowRunOutput as _switchyard_admin_v1_WorkflowRunOutput, WorkflowRunOutput__Output as _switchyard_admin_v1_WorkflowRunOutput__Output } from '../../../switchyard/admin/v1/WorkflowRunOutput.js';
import type { WorkflowSchedule as _switchyard_admin_v1_WorkflowSchedule, WorkflowSchedule__Output as _switchyard_admin_v1_WorkflowSchedule__Output } from '../../../switchyard/admin/v1/WorkflowSchedule.js';

export interface WorkflowServiceClient extends grpc.Client {
  AnswerInput(argument: _switchyard_admin_v1_AnswerInputRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  AnswerInput(argument: _switchyard_admin_v1_AnswerInputRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  AnswerInput(argument: _switchyard_admin_v1_AnswerInputRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  AnswerInput(argument: _switchyard_admin_v1_AnswerInputRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  answerInput(argument: _switchyard_admin_v1_AnswerInputRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  answerInput(argument: _switchyard_admin_v1_AnswerInputRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  answerInput(argument: _switchyard_admin_v1_AnswerInputRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  answerInput(argument: _switchyard_admin_v1_AnswerInputRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  
  CancelRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  CancelRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  CancelRun(argument: _switchyard_admin_v1_RunActionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  CancelRun(argument: _switchyard_admin_v1_RunActionRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  cancelRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  cancelRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  cancelRun(argument: _switchyard_admin_v1_RunActionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  cancelRun(argument: _switchyard_admin_v1_RunActionRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  
  CreateSchedule(argument: _switchyard_admin_v1_CreateScheduleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  CreateSchedule(argument: _switchyard_admin_v1_CreateScheduleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  CreateSchedule(argument: _switchyard_admin_v1_CreateScheduleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  CreateSchedule(argument: _switchyard_admin_v1_CreateScheduleRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  createSchedule(argument: _switchyard_admin_v1_CreateScheduleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  createSchedule(argument: _switchyard_admin_v1_CreateScheduleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  createSchedule(argument: _switchyard_admin_v1_CreateScheduleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  createSchedule(argument: _switchyard_admin_v1_CreateScheduleRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  
  CreateWorkflow(argument: _switchyard_admin_v1_CreateWorkflowRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  CreateWorkflow(argument: _switchyard_admin_v1_CreateWorkflowRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  CreateWorkflow(argument: _switchyard_admin_v1_CreateWorkflowRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  CreateWorkflow(argument: _switchyard_admin_v1_CreateWorkflowRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  createWorkflow(argument: _switchyard_admin_v1_CreateWorkflowRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  createWorkflow(argument: _switchyard_admin_v1_CreateWorkflowRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  createWorkflow(argument: _switchyard_admin_v1_CreateWorkflowRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  createWorkflow(argument: _switchyard_admin_v1_CreateWorkflowRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  
  DeleteSchedule(argument: _switchyard_admin_v1_DeleteScheduleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  DeleteSchedule(argument: _switchyard_admin_v1_DeleteScheduleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  DeleteSchedule(argument: _switchyard_admin_v1_DeleteScheduleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  DeleteSchedule(argument: _switchyard_admin_v1_DeleteScheduleRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  deleteSchedule(argument: _switchyard_admin_v1_DeleteScheduleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  deleteSchedule(argument: _switchyard_admin_v1_DeleteScheduleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  deleteSchedule(argument: _switchyard_admin_v1_DeleteScheduleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  deleteSchedule(argument: _switchyard_admin_v1_DeleteScheduleRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowSchedule__Output>): grpc.ClientUnaryCall;
  
  DeleteWorkflow(argument: _switchyard_admin_v1_DeleteWorkflowRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  DeleteWorkflow(argument: _switchyard_admin_v1_DeleteWorkflowRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  DeleteWorkflow(argument: _switchyard_admin_v1_DeleteWorkflowRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  DeleteWorkflow(argument: _switchyard_admin_v1_DeleteWorkflowRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  deleteWorkflow(argument: _switchyard_admin_v1_DeleteWorkflowRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  deleteWorkflow(argument: _switchyard_admin_v1_DeleteWorkflowRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  deleteWorkflow(argument: _switchyard_admin_v1_DeleteWorkflowRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  deleteWorkflow(argument: _switchyard_admin_v1_DeleteWorkflowRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  
  GetRun(argument: _switchyard_admin_v1_GetRunRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  GetRun(argument: _switchyard_admin_v1_GetRunRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  GetRun(argument: _switchyard_admin_v1_GetRunRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  GetRun(argument: _switchyard_admin_v1_GetRunRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  getRun(argument: _switchyard_admin_v1_GetRunRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  getRun(argument: _switchyard_admin_v1_GetRunRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  getRun(argument: _switchyard_admin_v1_GetRunRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  getRun(argument: _switchyard_admin_v1_GetRunRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  
  GetRunOutput(argument: _switchyard_admin_v1_GetRunOutputRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRunOutput__Output>): grpc.ClientUnaryCall;
  GetRunOutput(argument: _switchyard_admin_v1_GetRunOutputRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRunOutput__Output>): grpc.ClientUnaryCall;
  GetRunOutput(argument: _switchyard_admin_v1_GetRunOutputRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRunOutput__Output>): grpc.ClientUnaryCall;
  GetRunOutput(argument: _switchyard_admin_v1_GetRunOutputRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRunOutput__Output>): grpc.ClientUnaryCall;
  getRunOutput(argument: _switchyard_admin_v1_GetRunOutputRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRunOutput__Output>): grpc.ClientUnaryCall;
  getRunOutput(argument: _switchyard_admin_v1_GetRunOutputRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRunOutput__Output>): grpc.ClientUnaryCall;
  getRunOutput(argument: _switchyard_admin_v1_GetRunOutputRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRunOutput__Output>): grpc.ClientUnaryCall;
  getRunOutput(argument: _switchyard_admin_v1_GetRunOutputRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRunOutput__Output>): grpc.ClientUnaryCall;
  
  GetWorkflow(argument: _switchyard_admin_v1_GetWorkflowRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  GetWorkflow(argument: _switchyard_admin_v1_GetWorkflowRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  GetWorkflow(argument: _switchyard_admin_v1_GetWorkflowRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  GetWorkflow(argument: _switchyard_admin_v1_GetWorkflowRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  getWorkflow(argument: _switchyard_admin_v1_GetWorkflowRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  getWorkflow(argument: _switchyard_admin_v1_GetWorkflowRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  getWorkflow(argument: _switchyard_admin_v1_GetWorkflowRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  getWorkflow(argument: _switchyard_admin_v1_GetWorkflowRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Workflow__Output>): grpc.ClientUnaryCall;
  
  ListRunEvents(argument: _switchyard_admin_v1_ListRunEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunEventsResponse__Output>): grpc.ClientUnaryCall;
  ListRunEvents(argument: _switchyard_admin_v1_ListRunEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunEventsResponse__Output>): grpc.ClientUnaryCall;
  ListRunEvents(argument: _switchyard_admin_v1_ListRunEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunEventsResponse__Output>): grpc.ClientUnaryCall;
  ListRunEvents(argument: _switchyard_admin_v1_ListRunEventsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunEventsResponse__Output>): grpc.ClientUnaryCall;
  listRunEvents(argument: _switchyard_admin_v1_ListRunEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunEventsResponse__Output>): grpc.ClientUnaryCall;
  listRunEvents(argument: _switchyard_admin_v1_ListRunEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunEventsResponse__Output>): grpc.ClientUnaryCall;
  listRunEvents(argument: _switchyard_admin_v1_ListRunEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunEventsResponse__Output>): grpc.ClientUnaryCall;
  listRunEvents(argument: _switchyard_admin_v1_ListRunEventsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunEventsResponse__Output>): grpc.ClientUnaryCall;
  
  ListRuns(argument: _switchyard_admin_v1_ListRunsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunsResponse__Output>): grpc.ClientUnaryCall;
  ListRuns(argument: _switchyard_admin_v1_ListRunsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunsResponse__Output>): grpc.ClientUnaryCall;
  ListRuns(argument: _switchyard_admin_v1_ListRunsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunsResponse__Output>): grpc.ClientUnaryCall;
  ListRuns(argument: _switchyard_admin_v1_ListRunsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunsResponse__Output>): grpc.ClientUnaryCall;
  listRuns(argument: _switchyard_admin_v1_ListRunsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunsResponse__Output>): grpc.ClientUnaryCall;
  listRuns(argument: _switchyard_admin_v1_ListRunsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunsResponse__Output>): grpc.ClientUnaryCall;
  listRuns(argument: _switchyard_admin_v1_ListRunsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunsResponse__Output>): grpc.ClientUnaryCall;
  listRuns(argument: _switchyard_admin_v1_ListRunsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListRunsResponse__Output>): grpc.ClientUnaryCall;
  
  ListSchedules(argument: _switchyard_admin_v1_ListSchedulesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListSchedulesResponse__Output>): grpc.ClientUnaryCall;
  ListSchedules(argument: _switchyard_admin_v1_ListSchedulesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListSchedulesResponse__Output>): grpc.ClientUnaryCall;
  ListSchedules(argument: _switchyard_admin_v1_ListSchedulesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListSchedulesResponse__Output>): grpc.ClientUnaryCall;
  ListSchedules(argument: _switchyard_admin_v1_ListSchedulesRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListSchedulesResponse__Output>): grpc.ClientUnaryCall;
  listSchedules(argument: _switchyard_admin_v1_ListSchedulesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListSchedulesResponse__Output>): grpc.ClientUnaryCall;
  listSchedules(argument: _switchyard_admin_v1_ListSchedulesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListSchedulesResponse__Output>): grpc.ClientUnaryCall;
  listSchedules(argument: _switchyard_admin_v1_ListSchedulesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListSchedulesResponse__Output>): grpc.ClientUnaryCall;
  listSchedules(argument: _switchyard_admin_v1_ListSchedulesRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListSchedulesResponse__Output>): grpc.ClientUnaryCall;
  
  ListWorkflows(argument: _switchyard_admin_v1_ListWorkflowsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListWorkflowsResponse__Output>): grpc.ClientUnaryCall;
  ListWorkflows(argument: _switchyard_admin_v1_ListWorkflowsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListWorkflowsResponse__Output>): grpc.ClientUnaryCall;
  ListWorkflows(argument: _switchyard_admin_v1_ListWorkflowsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListWorkflowsResponse__Output>): grpc.ClientUnaryCall;
  ListWorkflows(argument: _switchyard_admin_v1_ListWorkflowsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListWorkflowsResponse__Output>): grpc.ClientUnaryCall;
  listWorkflows(argument: _switchyard_admin_v1_ListWorkflowsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListWorkflowsResponse__Output>): grpc.ClientUnaryCall;
  listWorkflows(argument: _switchyard_admin_v1_ListWorkflowsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListWorkflowsResponse__Output>): grpc.ClientUnaryCall;
  listWorkflows(argument: _switchyard_admin_v1_ListWorkflowsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListWorkflowsResponse__Output>): grpc.ClientUnaryCall;
  listWorkflows(argument: _switchyard_admin_v1_ListWorkflowsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListWorkflowsResponse__Output>): grpc.ClientUnaryCall;
  
  PauseRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  PauseRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  PauseRun(argument: _switchyard_admin_v1_RunActionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  PauseRun(argument: _switchyard_admin_v1_RunActionRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  pauseRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  pauseRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  pauseRun(argument: _switchyard_admin_v1_RunActionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  pauseRun(argument: _switchyard_admin_v1_RunActionRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  
  PromoteRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  PromoteRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  PromoteRun(argument: _switchyard_admin_v1_RunActionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  PromoteRun(argument: _switchyard_admin_v1_RunActionRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  promoteRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  promoteRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  promoteRun(argument: _switchyard_admin_v1_RunActionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  promoteRun(argument: _switchyard_admin_v1_RunActionRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  
  ResumeRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  ResumeRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  ResumeRun(argument: _switchyard_admin_v1_RunActionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  ResumeRun(argument: _switchyard_admin_v1_RunActionRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  resumeRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  resumeRun(argument: _switchyard_admin_v1_RunActionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  resumeRun(argument: _switchyard_admin_v1_RunActionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  resumeRun(argument: _switchyard_admin_v1_RunActionRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  
  RunWorkflow(argument: _switchyard_admin_v1_RunWorkflowRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  RunWorkflow(argument: _switchyard_admin_v1_RunWorkflowRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  RunWorkflow(argument: _switchyard_admin_v1_RunWorkflowRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  RunWorkflow(argument: _switchyard_admin_v1_RunWorkflowRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  runWorkflow(argument: _switchyard_admin_v1_RunWorkflowRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  runWorkflow(argument: _switchyard_admin_v1_RunWorkflowRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  runWorkflow(argument: _switchyard_admin_v1_RunWorkflowRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  runWorkflow(argument: _switchyard_admin_v1_RunWorkflowRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WorkflowRun__Output>): grpc.ClientUnaryCall;
  
}

export interface WorkflowServiceHandlers extends grpc.UntypedServiceImplementation {
  AnswerInput: grpc.handleUnaryCall<_switchyard_admin_v1_AnswerInputRequest__Output, _switchyard_admin_v1_WorkflowRun>;
  
  CancelRun: grpc.handleUnaryCall<_switchyard_admin_v1_RunActionRequest__Output, _switchyard_admin_v1_WorkflowRun>;
  
  CreateSchedule: grpc.handleUnaryCall<_switchyard_admin_v1_CreateScheduleRequest__Output, _switchyard_admin_v1_WorkflowSchedule>;
  
  CreateWorkflow: grpc.handleUnaryCall<_switchyard_admin_v1_CreateWorkflowRequest__Output, _switchyard_admin_v1_Workflow>;
  
  DeleteSchedule: grpc.handleUnaryCall<_switchyard_admin_v1_DeleteScheduleRequest__Output, _switchyard_admin_v1_WorkflowSchedule>;
  
  DeleteWorkflow: grpc.handleUnaryCall<_switchyard_admin_v1_DeleteWorkflowRequest__Output, _switchyard_admin_v1_Workflow>;
  
  GetRun: grpc.handleUnaryCall<_switchyard_admin_v1_GetRunRequest__Output, _switchyard_admin_v1_WorkflowRun>;
  
  GetRunOutput: grpc.handleUnaryCall<_switchyard_admin_v1_GetRunOutputRequest__Output, _switchyard_admin_v1_WorkflowRunOutput>;
  
  GetWorkflow: grpc.handleUnaryCall<_switchyard_admin_v1_GetWorkflowRequest__Output, _switchyard_admin_v1_Workflow>;
  
  ListRunEvents: grpc.handleUnaryCall<_switchyard_admin_v1_ListRunEventsRequest__Output, _switchyard_admin_v1_ListRunEventsResponse>;
  
  ListRuns: grpc.handleUnaryCall<_switchyard_admin_v1_ListRunsRequest__Output, _switchyard_admin_v1_ListRunsResponse>;
  
  ListSchedules: grpc.handleUnaryCall<_switchyard_admin_v1_ListSchedulesRequest__Output, _switchyard_admin_v1_ListSchedulesResponse>;
  
  ListWorkflows: grpc.handleUnaryCall<_switchyard_admin_v1_ListWorkflowsRequest__Output, _switchyard_admin_v1_ListWorkflowsResponse>;
  
  PauseRun: grpc.handleUnaryCall<_switchyard_admin_v1_RunActionRequest__Output, _switchyard_admin_v1_WorkflowRun>;
  
  PromoteRun: grpc.handleUnaryCall<_switchyard_admin_v1_RunActionRequest__Output, _switchyard_admin_v1_WorkflowRun>;
  
  ResumeRun: grpc.handleUnaryCall<_switchyard_admin_v1_RunActionRequest__Output, _switchyard_admin_v1_WorkflowRun>;
  
  RunWorkflow: grpc.handleUnaryCall<_switchyard_admin_v1_RunWorkflowRequest__Output, _switchyard_admin_v1_WorkflowRun>;
  
}

export interface WorkflowServiceDefinition extends grpc.ServiceDefinition {
  AnswerInput: MethodDefinition<_switchyard_admin_v1_AnswerInputRequest, _switchyard_admin_v1_WorkflowRun, _switchyard_admin_v1_AnswerInputRequest__Output, _switchyard_admin_v1_WorkflowRun__Output>
  CancelRun: MethodDefinition<_switchyard_admin_v1_RunActionRequest, _switchyard_admin_v1_WorkflowRun, _switchyard_admin_v1_RunActionRequest__Output, _switchyard_admin_v1_WorkflowRun__Output>
  CreateSchedule: MethodDefinition<_switchyard_admin_v1_CreateScheduleRequest, _switchyard_admin_v1_WorkflowSchedule, _switchyard_admin_v1_CreateScheduleRequest__Output, _switchyard_admin_v1_WorkflowSchedule__Output>
  CreateWorkflow: MethodDefinition<_switchyard_admin_v1_CreateWorkflowRequest, _switchyard_admin_v1_Workflow, _switchyard_admin_v1_CreateWorkflowRequest__Output, _switchyard_admin_v1_Workflow__Output>
  DeleteSchedule: MethodDefinition<_switchyard_admin_v1_DeleteScheduleRequest, _switchyard_admin_v1_WorkflowSchedule, _switchyard_admin_v1_DeleteScheduleRequest__Output, _switchyard_admin_v1_WorkflowSchedule__Output>
  DeleteWorkflow: MethodDefinition<_switchyard_admin_v1_DeleteWorkflowRequest, _switchyard_admin_v1_Workflow, _switchyard_admin_v1_DeleteWorkflowRequest__Output, _switchyard_admin_v1_Workflow__Output>
  GetRun: MethodDefinition<_switchyard_admin_v1_GetRunRequest, _switchyard_admin_v1_WorkflowRun, _switchyard_admin_v1_GetRunRequest__Output, _switchyard_admin_v1_WorkflowRun__Output>
  GetRunOutput: MethodDefinition<_switchyard_admin_v1_GetRunOutputRequest, _switchyard_admin_v1_WorkflowRunOutput, _switchyard_admin_v1_GetRunOutputRequest__Output, _switchyard_admin_v1_WorkflowRunOutput__Output>
  GetWorkflow: MethodDefinition<_switchyard_admin_v1_GetWorkflowRequest, _switchyard_admin_v1_Workflow, _switchyard_admin_v1_GetWorkflowRequest__Output, _switchyard_admin_v1_Workflow__Output>
  ListRunEvents: MethodDefinition<_switchyard_admin_v1_ListRunEventsRequest, _switchyard_admin_v1_ListRunEventsResponse, _switchyard_admin_v1_ListRunEventsRequest__Output, _switchyard_admin_v1_ListRunEventsResponse__Output>
  ListRuns: MethodDefinition<_switchyard_admin_v1_ListRunsRequest, _switchyard_admin_v1_ListRunsResponse, _switchyard_admin_v1_ListRunsRequest__Output, _switchyard_admin_v1_ListRunsResponse__Output>
  ListSchedules: MethodDefinition<_switchyard_admin_v1_ListSchedulesRequest, _switchyard_admin_v1_ListSchedulesResponse, _switchyard_admin_v1_ListSchedulesRequest__Output, _switchyard_admin_v1_ListSchedulesResponse__Output>
  ListWorkflows: MethodDefinition<_switchyard_admin_v1_ListWorkflowsRequest, _switchyard_admin_v1_ListWorkflowsResponse, _switchyard_admin_v1_ListWorkflowsRequest__Output, _switchyard_admin_v1_ListWorkflowsResponse__Output>
  PauseRun: MethodDefinition<_switchyard_admin_v1_RunActionRequest, _switchyard_admin_v1_WorkflowRun, _switchyard_admin_v1_RunActionRequest__Output, _switchyard_admin_v1_WorkflowRun__Output>
  PromoteRun: MethodDefinition<_switchyard_admin_v1_RunActionRequest, _switchyard_admin_v1_WorkflowRun, _switchyard_admin_v1_RunActionRequest__Output, _switchyard_admin_v1_WorkflowRun__Output>
  ResumeRun: MethodDefinition<_switchyard_admin_v1_RunActionRequest, _switchyard_admin_v1_WorkflowRun, _switchyard_admin_v1_RunActionRequest__Output, _switchyard_admin_v1_WorkflowRun__Output>
  RunWorkflow: MethodDefinition<_switchyard_admin_v1_RunWorkflowRequest, _switchyard_admin_v1_WorkflowRun, _switchyard_admin_v1_RunWorkflowRequest__Output, _switchyard_admin_v1_WorkflowRun__Output>
}
