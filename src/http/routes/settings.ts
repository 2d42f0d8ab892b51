import { settingsPatchSchema, settingsSchema } from '../../domain/settings/schemas.js';
import type { Services } from '../../areas.js';
import { defineRoute, idParams } from '../route.js';

export function settingsRoutes({ settings }: Services) {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/organizations/:id/settings',
      summary: "An organization's settings, defaults filled in (member)",
      tag: 'settings',
      params: idParams('id'),
      response: settingsSchema,
      handler: async (ctx) => settings.getSettings(ctx.caller, ctx.params.id),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/organizations/:id/settings',
      summary: 'Change any of the settings (owner); null resets a text field to its default',
      tag: 'settings',
      params: idParams('id'),
      body: settingsPatchSchema,
      response: settingsSchema,
      handler: async (ctx) => settings.updateSettings(ctx.caller, ctx.params.id, ctx.body),
    }),
  ];
}
