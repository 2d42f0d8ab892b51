import { z } from 'zod';
import { eventKinds } from './types.js';

// Request schemas of the event log's read side: HTTP and gRPC input from one place.

/** Event ids are `evt_` + a time-sortable id (contract 3). */
export const eventIdSchema = z.string().regex(/^evt_[0-9A-Z]{26}$/, 'must be an event id');

export const eventKindSchema = z.enum(eventKinds);
