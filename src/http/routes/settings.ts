import { z } from 'zod';
import type { Caller } from '../../domain/identity/caller.js';
import { settingsPatchSchema, settingsSchema } from '../../domain/settings/schemas.js';
import type { SettingsService } from '../../domain/settings/service.js';
import { defineRoute, uuidParam } from '../route.js';

const orgParams = z.object({ id: uuidParam });

function caller(c: Caller | null): Caller {
  return c!;
}

export function settingsRoutes(settings: SettingsService) {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/organizations/:id/settings',
      summary: "An organization's settings, defaults filled in (member)",
      tag: 'settings',
      params: orgParams,
      response: settingsSchema,
      handler: async (ctx) => settings.getSettings(caller(ctx.caller), ctx.params.id),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/organizations/:id/settings',
      summary: 'Change any of the settings (owner); null resets a text field to its default',
      tag: 'settings',
      params: orgParams,
      body: settingsPatchSchema,
      response: settingsSchema,
      handler: async (ctx) => settings.updateSettings(caller(ctx.caller), ctx.params.id, ctx.body),
    }),
  ];
}
