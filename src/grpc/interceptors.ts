import { createHash, timingSafeEqual } from 'node:crypto';
import {
  Metadata,
  ResponderBuilder,
  ServerInterceptingCall,
  ServerListenerBuilder,
  status,
  type ServerInterceptor,
} from '@grpc/grpc-js';
import { ERROR_CODE_KEY } from './error-keys.js';

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * The TCP listener's door: every call must carry `authorization: Bearer <token>`, else it ends
 * UNAUTHENTICATED before any handler runs. Digests are compared, so the comparison takes the same
 * time whatever the presented value's length or content.
 */
export function requireBearerToken(token: string): ServerInterceptor {
  const expected = digest(token);
  const accepts = (metadata: Metadata): boolean => {
    const values = metadata.get('authorization');
    if (values.length !== 1 || typeof values[0] !== 'string') return false;
    const match = /^Bearer (.+)$/i.exec(values[0]);
    return match !== null && timingSafeEqual(digest(match[1]), expected);
  };
  return (_method, call) => {
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        if (accepts(metadata)) return next(metadata);
        const trailers = new Metadata();
        trailers.set(ERROR_CODE_KEY, 'unauthenticated');
        call.sendStatus({
          code: status.UNAUTHENTICATED,
          details: 'unauthenticated: the admin token is missing or wrong',
          metadata: trailers,
        });
      })
      .build();
    return new ServerInterceptingCall(call, new ResponderBuilder().withStart((next) => next(listener)).build());
  };
}
