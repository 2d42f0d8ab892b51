import { z } from 'zod';
import { settingsPatchSchema, type SettingsPatch } from '../../domain/settings/schemas.js';
import { validationFailed } from '../../errors.js';
import type { SettingsServiceHandlers } from '../generated/switchyard/admin/v1/SettingsService.js';
import type { UpdateSettingsRequest__Output } from '../generated/switchyard/admin/v1/UpdateSettingsRequest.js';
import { parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

// proto3 `optional` tells "unset" (keep) from a value; what HTTP expresses as `null` (back to the
// default) is the `reset` list. The fields it may name are those the domain schema lets be null.
const patchFields = Object.keys(settingsPatchSchema.shape) as (keyof typeof settingsPatchSchema.shape)[];
const resettable = patchFields.filter((field) => settingsPatchSchema.shape[field].safeParse(null).success) as [
  string,
  ...string[],
];
const resetRequest = z.object({ reset: z.array(z.enum(resettable, `each must be one of ${resettable.join(', ')}`)) });

/** The HTTP PUT body this request means: set fields with their values, reset ones as null. */
function toPatch(req: UpdateSettingsRequest__Output): SettingsPatch {
  const { reset } = parseRequest(resetRequest, { reset: req.reset });
  const patch: Record<string, unknown> = {};
  for (const field of patchFields) if (req[field] !== undefined) patch[field] = req[field];
  const both = reset.filter((field) => field in patch);
  if (both.length > 0)
    throw validationFailed(
      { reset: `${both.join(', ')} both set and reset` },
      `invalid reset: ${both.join(', ')} both set and reset`,
    );
  for (const field of reset) patch[field] = null;
  return parseRequest(settingsPatchSchema, patch);
}

function implement({ services, log }: ServiceContext): SettingsServiceHandlers {
  return {
    GetSettings: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      return toMessage(await services.settings.getSettings(actor, org.id));
    }),
    UpdateSettings: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      return toMessage(await services.settings.updateSettings(actor, org.id, toPatch(req)));
    }),
  };
}

export const settingsService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/settings.proto',
  serviceName: 'switchyard.admin.v1.SettingsService',
  implement,
};
