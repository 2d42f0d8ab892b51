import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value.js';
import type { AnswerInputRequest as _switchyard_admin_v1_AnswerInputRequest, AnswerInputRequest__Output as _switchyard_admin_v1_AnswerInputRequest__Output } from './switchyard/admin/v1/AnswerInputRequest.js';
import type { CreateScheduleRequest as _switchyard_admin_v1_CreateScheduleRequest, CreateScheduleRequest__Output as _switchyard_admin_v1_CreateScheduleRequest__Output } from './switchyard/admin/v1/CreateScheduleRequest.js';
import type { CreateWorkflowRequest as _switchyard_admin_v1_CreateWorkflowRequest, CreateWorkflowRequest__Output as _switchyard_admin_v1_CreateWorkflowRequest__Output } from './switchyard/admin/v1/CreateWorkflowRequest.js';
import type { DeleteScheduleRequest as _switchyard_admin_v1_DeleteScheduleRequest, DeleteScheduleRequest__Output as _switchyard_admin_v1_DeleteScheduleRequest__Output } from './switchyard/admin/v1/DeleteScheduleRequest.js';
import type { DeleteWorkflowRequest as _switchyard_admin_v1_DeleteWorkflowRequest, DeleteWorkflowRequest__Output as _switchyard_admin_v1_DeleteWorkflowRequest__Output } from './switchyard/admin/v1/DeleteWorkflowRequest.js';
import type { Event as _switchyard_admin_v1_Event, Event__Output as _switchyard_admin_v1_Event__Output } from './switchyard/admin/v1/Event.js';
import type { EventServiceClient as _switchyard_admin_v1_EventServiceClient, EventServiceDefinition as _switchyard_admin_v1_EventServiceDefinition } from './switchyard/admin/v1/EventService.js';
import type { GetRunOutputRequest as _switchyard_admin_v1_GetRunOutputRequest, GetRunOutputRequest__Output as _switchyard_admin_v1_GetRunOutputRequest__Output } from './switchyard/admin/v1/GetRunOutputRequest.js';
import type { GetRunRequest as _switchyard_admin_v1_GetRunRequest, GetRunRequest__Output as _switchyard_admin_v1_GetRunRequest__Output } from './switchyard/admin/v1/GetRunRequest.js';
import type { GetWorkflowRequest as _switchyard_admin_v1_GetWorkflowRequest, GetWorkflowRequest__Output as _switchyard_admin_v1_GetWorkflowRequest__Output } from './switchyard/admin/v1/GetWorkflowRequest.js';
import type { ListEventsRequest as _switchyard_admin_v1_ListEventsRequest, ListEventsRequest__Output as _switchyard_admin_v1_ListEventsRequest__Output } from './switchyard/admin/v1/ListEventsRequest.js';
import type { ListEventsResponse as _switchyard_admin_v1_ListEventsResponse, ListEventsResponse__Output as _switchyard_admin_v1_ListEventsResponse__Output } from './switchyard/admin/v1/ListEventsResponse.js';
import type { ListRunEventsRequest as _switchyard_admin_v1_ListRunEventsRequest, ListRunEventsRequest__Output as _switchyard_admin_v1_ListRunEventsRequest__Output } from './switchyard/admin/v1/ListRunEventsRequest.js';
import type { ListRunEventsResponse as _switchyard_admin_v1_ListRunEventsResponse, ListRunEventsResponse__Output as _switchyard_admin_v1_ListRunEventsResponse__Output } from './switchyard/admin/v1/ListRunEventsResponse.js';
import type { ListRunsRequest as _switchyard_admin_v1_ListRunsRequest, ListRunsRequest__Output as _switchyard_admin_v1_ListRunsRequest__Output } from './switchyard/admin/v1/ListRunsRequest.js';
import type { ListRunsResponse as _switchyard_admin_v1_ListRunsResponse, ListRunsResponse__Output as _switchyard_admin_v1_ListRunsResponse__Output } from './switchyard/admin/v1/ListRunsResponse.js';
import type { ListSchedulesRequest as _switchyard_admin_v1_ListSchedulesRequest, ListSchedulesRequest__Output as _switchyard_admin_v1_ListSchedulesRequest__Output } from './switchyard/admin/v1/ListSchedulesRequest.js';
import type { ListSchedulesResponse as _switchyard_admin_v1_ListSchedulesResponse, ListSchedulesResponse__Output as _switchyard_admin_v1_ListSchedulesResponse__Output } from './switchyard/admin/v1/ListSchedulesResponse.js';
import type { ListWorkflowsRequest as _switchyard_admin_v1_ListWorkflowsRequest, ListWorkflowsRequest__Output as _switchyard_admin_v1_ListWorkflowsRequest__Output } from './switchyard/admin/v1/ListWorkflowsRequest.js';
import type { ListWorkflowsResponse as _switchyard_admin_v1_ListWorkflowsResponse, ListWorkflowsResponse__Output as _switchyard_admin_v1_ListWorkflowsResponse__Output } from './switchyard/admin/v1/ListWorkflowsResponse.js';
import type { RunActionRequest as _switchyard_admin_v1_RunActionRequest, RunActionRequest__Output as _switchyard_admin_v1_RunActionRequest__Output } from './switchyard/admin/v1/RunActionRequest.js';
import type { RunWorkflowRequest as _switchyard_admin_v1_RunWorkflowRequest, RunWorkflowRequest__Output as _switchyard_admin_v1_RunWorkflowRequest__Output } from './switchyard/admin/v1/RunWorkflowRequest.js';
import type { TailEventsRequest as _switchyard_admin_v1_TailEventsRequest, TailEventsRequest__Output as _switchyard_admin_v1_TailEventsRequest__Output } from './switchyard/admin/v1/TailEventsRequest.js';
import type { Workflow as _switchyard_admin_v1_Workflow, Workflow__Output as _switchyard_admin_v1_Workflow__Output } from './switchyard/admin/v1/Workflow.js';
import type { WorkflowNode as _switchyard_admin_v1_WorkflowNode, WorkflowNode__Output as _switchyard_admin_v1_WorkflowNode__Output } from './switchyard/admin/v1/WorkflowNode.js';
import type { WorkflowNodeState as _switchyard_admin_v1_WorkflowNodeState, WorkflowNodeState__Output as _switchyard_admin_v1_WorkflowNodeState__Output } from './switchyard/admin/v1/WorkflowNodeState.js';
import type { WorkflowRun as _switchyard_admin_v1_WorkflowRun, WorkflowRun__Output as _switchyard_admin_v1_WorkflowRun__Output } from './switchyard/admin/v1/WorkflowRun.js';
import type { WorkflowRunArtifact as _switchyard_admin_v1_WorkflowRunArtifact, WorkflowRunArtifact__Output as _switchyard_admin_v1_WorkflowRunArtifact__Output } from './switchyard/admin/v1/WorkflowRunArtifact.js';
import type { WorkflowRunError as _switchyard_admin_v1_WorkflowRunError, WorkflowRunError__Output as _switchyard_admin_v1_WorkflowRunError__Output } from './switchyard/admin/v1/WorkflowRunError.js';
import type { WorkflowRunOutput as _switchyard_admin_v1_WorkflowRunOutput, WorkflowRunOutput__Output as _switchyard_admin_v1_WorkflowRunOutput__Output } from './switchyard/admin/v1/WorkflowRunOutput.js';
import type { WorkflowRunSubmitter as _switchyard_admin_v1_WorkflowRunSubmitter, WorkflowRunSubmitter__Output as _switchyard_admin_v1_WorkflowRunSubmitter__Output } from './switchyard/admin/v1/WorkflowRunSubmitter.js';
import type { WorkflowSchedule as _switchyard_admin_v1_WorkflowSchedule, WorkflowSchedule__Output as _switchyard_admin_v1_WorkflowSchedule__Output } from './switchyard/admin/v1/WorkflowSchedule.js';
import type { WorkflowServiceClient as _switchyard_admin_v1_WorkflowServiceClient, WorkflowServiceDefinition as _switchyard_admin_v1_WorkflowServiceDefinition } from './switchyard/admin/v1/WorkflowService.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      ListValue: MessageTypeDefinition<_google_protobuf_ListValue, _google_protobuf_ListValue__Output>
      NullValue: EnumTypeDefinition
      Struct: MessageTypeDefinition<_google_protobuf_Struct, _google_protobuf_Struct__Output>
      Value: MessageTypeDefinition<_google_protobuf_Value, _google_protobuf_Value__Output>
    }
  }
  switchyard: {
    admin: {
      v1: {
        AnswerInputRequest: MessageTypeDefinition<_switchyard_admin_v1_AnswerInputRequest, _switchyard_admin_v1_AnswerInputRequest__Output>
        CreateScheduleRequest: MessageTypeDefinition<_switchyard_admin_v1_CreateScheduleRequest, _switchyard_admin_v1_CreateScheduleRequest__Output>
        CreateWorkflowRequest: MessageTypeDefinition<_switchyard_admin_v1_CreateWorkflowRequest, _switchyard_admin_v1_CreateWorkflowRequest__Output>
        DeleteScheduleRequest: MessageTypeDefinition<_switchyard_admin_v1_DeleteScheduleRequest, _switchyard_admin_v1_DeleteScheduleRequest__Output>
        DeleteWorkflowRequest: MessageTypeDefinition<_switchyard_admin_v1_DeleteWorkflowRequest, _switchyard_admin_v1_DeleteWorkflowRequest__Output>
        Event: MessageTypeDefinition<_switchyard_admin_v1_Event, _switchyard_admin_v1_Event__Output>
        EventService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_EventServiceClient> & { service: _switchyard_admin_v1_EventServiceDefinition }
        GetRunOutputRequest: MessageTypeDefinition<_switchyard_admin_v1_GetRunOutputRequest, _switchyard_admin_v1_GetRunOutputRequest__Output>
        GetRunRequest: MessageTypeDefinition<_switchyard_admin_v1_GetRunRequest, _switchyard_admin_v1_GetRunRequest__Output>
        GetWorkflowRequest: MessageTypeDefinition<_switchyard_admin_v1_GetWorkflowRequest, _switchyard_admin_v1_GetWorkflowRequest__Output>
        ListEventsRequest: MessageTypeDefinition<_switchyard_admin_v1_ListEventsRequest, _switchyard_admin_v1_ListEventsRequest__Output>
        ListEventsResponse: MessageTypeDefinition<_switchyard_admin_v1_ListEventsResponse, _switchyard_admin_v1_ListEventsResponse__Output>
        ListRunEventsRequest: MessageTypeDefinition<_switchyard_admin_v1_ListRunEventsRequest, _switchyard_admin_v1_ListRunEventsRequest__Output>
        ListRunEventsResponse: MessageTypeDefinition<_switchyard_admin_v1_ListRunEventsResponse, _switchyard_admin_v1_ListRunEventsResponse__Output>
        ListRunsRequest: MessageTypeDefinition<_switchyard_admin_v1_ListRunsRequest, _switchyard_admin_v1_ListRunsRequest__Output>
        ListRunsResponse: MessageTypeDefinition<_switchyard_admin_v1_ListRunsResponse, _switchyard_admin_v1_ListRunsResponse__Output>
        ListSchedulesRequest: MessageTypeDefinition<_switchyard_admin_v1_ListSchedulesRequest, _switchyard_admin_v1_ListSchedulesRequest__Output>
        ListSchedulesResponse: MessageTypeDefinition<_switchyard_admin_v1_ListSchedulesResponse, _switchyard_admin_v1_ListSchedulesResponse__Output>
        ListWorkflowsRequest: MessageTypeDefinition<_switchyard_admin_v1_ListWorkflowsRequest, _switchyard_admin_v1_ListWorkflowsRequest__Output>
        ListWorkflowsResponse: MessageTypeDefinition<_switchyard_admin_v1_ListWorkflowsResponse, _switchyard_admin_v1_ListWorkflowsResponse__Output>
        RunActionRequest: MessageTypeDefinition<_switchyard_admin_v1_RunActionRequest, _switchyard_admin_v1_RunActionRequest__Output>
        RunWorkflowRequest: MessageTypeDefinition<_switchyard_admin_v1_RunWorkflowRequest, _switchyard_admin_v1_RunWorkflowRequest__Output>
        TailEventsRequest: MessageTypeDefinition<_switchyard_admin_v1_TailEventsRequest, _switchyard_admin_v1_TailEventsRequest__Output>
        Workflow: MessageTypeDefinition<_switchyard_admin_v1_Workflow, _switchyard_admin_v1_Workflow__Output>
        WorkflowNode: MessageTypeDefinition<_switchyard_admin_v1_WorkflowNode, _switchyard_admin_v1_WorkflowNode__Output>
        WorkflowNodeState: MessageTypeDefinition<_switchyard_admin_v1_WorkflowNodeState, _switchyard_admin_v1_WorkflowNodeState__Output>
        WorkflowRun: MessageTypeDefinition<_switchyard_admin_v1_WorkflowRun, _switchyard_admin_v1_WorkflowRun__Output>
        WorkflowRunArtifact: MessageTypeDefinition<_switchyard_admin_v1_WorkflowRunArtifact, _switchyard_admin_v1_WorkflowRunArtifact__Output>
        WorkflowRunError: MessageTypeDefinition<_switchyard_admin_v1_WorkflowRunError, _switchyard_admin_v1_WorkflowRunError__Output>
        WorkflowRunOutput: MessageTypeDefinition<_switchyard_admin_v1_WorkflowRunOutput, _switchyard_admin_v1_WorkflowRunOutput__Output>
        WorkflowRunSubmitter: MessageTypeDefinition<_switchyard_admin_v1_WorkflowRunSubmitter, _switchyard_admin_v1_WorkflowRunSubmitter__Output>
        WorkflowSchedule: MessageTypeDefinition<_switchyard_admin_v1_WorkflowSchedule, _switchyard_admin_v1_WorkflowSchedule__Output>
        WorkflowService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_WorkflowServiceClient> & { service: _switchyard_admin_v1_WorkflowServiceDefinition }
      }
    }
  }
}

