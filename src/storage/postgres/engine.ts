import type { Logger } from '../../log.js';
import type { Storage } from '../port.js';

export const PostgresStorage = {
  open(_url: string, _log: Logger): Promise<Storage> {
    throw new Error('PostgreSQL storage: not yet');
  },
};
