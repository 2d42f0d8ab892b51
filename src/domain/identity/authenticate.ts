import { z } from 'zod';
import { AppError } from '../../errors.js';
import { emailSchema } from '../schemas.js';
import type { ApiKeyService } from './api-keys.js';
import type { Caller } from './caller.js';
import { isSubject, type PrincipalService } from './principals.js';
import type * as Jose from 'jose';

export interface AuthenticationSettings {
  env: 'development' | 'production';
  jwtSecret?: string;
  jwtIssuer?: string;
  jwtAudience?: string;
  /** SERVICE_JWT_MAX_AGE_S: when set, a JWT needs `iat` and may be at most this many seconds old. */
  jwtMaxAgeS?: number;
  /** SERVICE_JWT_EMAIL_CLAIM: the email claim; `<claim>_verified` says whether the provider verified it. */
  jwtEmailClaim: string;
}

/** How far in the future a JWT's `iat` may be (issuer and daemon clocks differ a little), when its age is bounded. */
export const JWT_IAT_LEEWAY_S = 30;

/** What a transport hands over: the Authorization header and the development principal header. */
export interface Credentials {
  authorization?: string;
  principalId?: string;
}

const uuid = z.uuid();

// jose loads on the first JWT: a daemon that sees none (API keys only) does not hold it in memory.
let jose: Promise<typeof Jose> | undefined;

/**
 * A compact JWS of three canonical base64url parts: no padding, no stray characters, and no spare
 * bits, so one token has exactly one spelling (a signature with `=` appended is another token).
 */
function isCanonicalCompactJws(token: string): boolean {
  const parts = token.split('.');
  return (
    parts.length === 3 &&
    parts.every(
      (part) => part.length > 0 && /^[A-Za-z0-9_-]+$/.test(part) && Buffer.from(part, 'base64url').toString('base64url') === part,
    )
  );
}

/**
 * The authentication chain in the spec's priority order: API key, HS256 JWT, development principal,
 * anonymous. Presented credentials that fail are an error; they never fall through to a weaker one.
 */
export class AuthenticationService {
  private readonly jwtKey: Uint8Array | undefined;

  constructor(
    private readonly apiKeys: ApiKeyService,
    private readonly principals: PrincipalService,
    private readonly settings: AuthenticationSettings,
  ) {
    this.jwtKey = settings.jwtSecret === undefined ? undefined : new TextEncoder().encode(settings.jwtSecret);
  }

  /** Synchronous for the development header (and no credentials); API keys and JWTs are read or verified asynchronously. */
  authenticate(credentials: Credentials): Caller | null | Promise<Caller> {
    const header = credentials.authorization;
    if (header !== undefined) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (match === null) throw new AppError('unauthenticated', 'Authorization must be "Bearer <API key or JWT>"');
      const token = match[1];
      return token.startsWith('svc_') ? this.apiKeys.authenticate(token) : this.verifyJwt(token);
    }
    if (credentials.principalId !== undefined && this.settings.env !== 'production') {
      if (!uuid.safeParse(credentials.principalId).success)
        throw new AppError('unauthenticated', 'X-Principal-Id must be a UUID');
      return { principalId: credentials.principalId.toLowerCase(), method: 'dev' };
    }
    return null;
  }

  private async verifyJwt(token: string): Promise<Caller> {
    if (this.jwtKey === undefined) throw new AppError('unauthenticated', 'JWTs are not accepted (JWT_SECRET is not set)');
    if (!isCanonicalCompactJws(token)) throw new AppError('unauthenticated', 'invalid JWT (not canonical base64url)');
    const { errors: joseErrors, jwtVerify } = await (jose ??= import('jose'));
    try {
      const { payload } = await jwtVerify(token, this.jwtKey, {
        algorithms: ['HS256'],
        requiredClaims: this.settings.jwtMaxAgeS === undefined ? ['exp', 'sub'] : ['exp', 'sub', 'iat'],
        ...(this.settings.jwtIssuer === undefined ? {} : { issuer: this.settings.jwtIssuer }),
        ...(this.settings.jwtAudience === undefined ? {} : { audience: this.settings.jwtAudience }),
      });
      if (!isSubject(payload.sub))
        throw new AppError('unauthenticated', 'JWT sub must be a subject of 1 to 255 characters, without control characters');
      if (this.settings.jwtMaxAgeS !== undefined) this.checkAge(payload.iat!, this.settings.jwtMaxAgeS);
      return { principalId: await this.principals.resolveSubject(payload.sub, this.verifiedEmail(payload)), method: 'jwt' };
    } catch (err) {
      if (err instanceof AppError) throw err;
      const reason =
        err instanceof joseErrors.JWTExpired
          ? 'JWT expired'
          : err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'iat' && err.reason === 'missing'
            ? 'JWT has no iat claim (required: tokens may be at most SERVICE_JWT_MAX_AGE_S old)'
            : err instanceof joseErrors.JOSEError
              ? `invalid JWT (${err.code})`
              : 'invalid JWT';
      throw new AppError('unauthenticated', reason, { reason: err instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' });
    }
  }

  /** The token's email when the provider says it verified it (`email_verified: true`), else undefined. */
  private verifiedEmail(payload: Record<string, unknown>): string | undefined {
    const claim = this.settings.jwtEmailClaim;
    const email = payload[claim];
    if (payload[`${claim}_verified`] !== true || typeof email !== 'string') return undefined;
    return emailSchema.safeParse(email).success ? email : undefined;
  }

  /**
   * The token's age bound: issued at most `maxAgeS` ago, and not later than a small leeway from
   * now (jose's maxTokenAge shares one tolerance with exp and nbf, which stay exact here).
   */
  private checkAge(iat: number, maxAgeS: number): void {
    const age = Date.now() / 1000 - iat;
    if (age > maxAgeS)
      throw new AppError('unauthenticated', `JWT too old (issued ${Math.floor(age)} s ago; at most ${maxAgeS} s)`, {
        reason: 'expired',
      });
    if (age < -JWT_IAT_LEEWAY_S) throw new AppError('unauthenticated', 'JWT iat is in the future');
  }
}
