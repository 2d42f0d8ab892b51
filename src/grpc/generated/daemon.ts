import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { BackupChunk as _switchyard_admin_v1_BackupChunk, BackupChunk__Output as _switchyard_admin_v1_BackupChunk__Output } from './switchyard/admin/v1/BackupChunk.js';
import type { BackupRequest as _switchyard_admin_v1_BackupRequest, BackupRequest__Output as _switchyard_admin_v1_BackupRequest__Output } from './switchyard/admin/v1/BackupRequest.js';
import type { ConfigSetting as _switchyard_admin_v1_ConfigSetting, ConfigSetting__Output as _switchyard_admin_v1_ConfigSetting__Output } from './switchyard/admin/v1/ConfigSetting.js';
import type { DaemonConfig as _switchyard_admin_v1_DaemonConfig, DaemonConfig__Output as _switchyard_admin_v1_DaemonConfig__Output } from './switchyard/admin/v1/DaemonConfig.js';
import type { DaemonServiceClient as _switchyard_admin_v1_DaemonServiceClient, DaemonServiceDefinition as _switchyard_admin_v1_DaemonServiceDefinition } from './switchyard/admin/v1/DaemonService.js';
import type { DaemonStatus as _switchyard_admin_v1_DaemonStatus, DaemonStatus__Output as _switchyard_admin_v1_DaemonStatus__Output } from './switchyard/admin/v1/DaemonStatus.js';
import type { DatabaseFacts as _switchyard_admin_v1_DatabaseFacts, DatabaseFacts__Output as _switchyard_admin_v1_DatabaseFacts__Output } from './switchyard/admin/v1/DatabaseFacts.js';
import type { DoctorFacts as _switchyard_admin_v1_DoctorFacts, DoctorFacts__Output as _switchyard_admin_v1_DoctorFacts__Output } from './switchyard/admin/v1/DoctorFacts.js';
import type { DoctorRequest as _switchyard_admin_v1_DoctorRequest, DoctorRequest__Output as _switchyard_admin_v1_DoctorRequest__Output } from './switchyard/admin/v1/DoctorRequest.js';
import type { GetConfigRequest as _switchyard_admin_v1_GetConfigRequest, GetConfigRequest__Output as _switchyard_admin_v1_GetConfigRequest__Output } from './switchyard/admin/v1/GetConfigRequest.js';
import type { GetStatusRequest as _switchyard_admin_v1_GetStatusRequest, GetStatusRequest__Output as _switchyard_admin_v1_GetStatusRequest__Output } from './switchyard/admin/v1/GetStatusRequest.js';
import type { LoopStatus as _switchyard_admin_v1_LoopStatus, LoopStatus__Output as _switchyard_admin_v1_LoopStatus__Output } from './switchyard/admin/v1/LoopStatus.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchyard: {
    admin: {
      v1: {
        BackupChunk: MessageTypeDefinition<_switchyard_admin_v1_BackupChunk, _switchyard_admin_v1_BackupChunk__Output>
        BackupRequest: MessageTypeDefinition<_switchyard_admin_v1_BackupRequest, _switchyard_admin_v1_BackupRequest__Output>
        ConfigSetting: MessageTypeDefinition<_switchyard_admin_v1_ConfigSetting, _switchyard_admin_v1_ConfigSetting__Output>
        DaemonConfig: MessageTypeDefinition<_switchyard_admin_v1_DaemonConfig, _switchyard_admin_v1_DaemonConfig__Output>
        DaemonService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_DaemonServiceClient> & { service: _switchyard_admin_v1_DaemonServiceDefinition }
        DaemonStatus: MessageTypeDefinition<_switchyard_admin_v1_DaemonStatus, _switchyard_admin_v1_DaemonStatus__Output>
        DatabaseFacts: MessageTypeDefinition<_switchyard_admin_v1_DatabaseFacts, _switchyard_admin_v1_DatabaseFacts__Output>
        DoctorFacts: MessageTypeDefinition<_switchyard_admin_v1_DoctorFacts, _switchyard_admin_v1_DoctorFacts__Output>
        DoctorRequest: MessageTypeDefinition<_switchyard_admin_v1_DoctorRequest, _switchyard_admin_v1_DoctorRequest__Output>
        GetConfigRequest: MessageTypeDefinition<_switchyard_admin_v1_GetConfigRequest, _switchyard_admin_v1_GetConfigRequest__Output>
        GetStatusRequest: MessageTypeDefinition<_switchyard_admin_v1_GetStatusRequest, _switchyard_admin_v1_GetStatusRequest__Output>
        LoopStatus: MessageTypeDefinition<_switchyard_admin_v1_LoopStatus, _switchyard_admin_v1_LoopStatus__Output>
      }
    }
  }
}

