// Secrets never reach a log line or a stored error text: query values that carry credentials, and
// tokens quoted back by outside services (an email provider's error that echoes the request).

/** Query parameter names whose values are credentials (compared lower-cased, after decoding). */
const SECRET_PARAMS = new Set([
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'api_key',
  'apikey',
  'key',
  'secret',
  'client_secret',
  'signature',
  'sig',
  'password',
  'pass',
  'auth',
  'authorization',
  'code',
  'credential',
  'credentials',
]);

const REDACTED = '[redacted]';

/**
 * A request URL for a log line: every query value whose decoded name is a credential is masked
 * (`?%74oken=` is `token`), whatever the spelling a parser may still read as that name: pairs split
 * on `;` as well as `&` (`?x=1;token=`), and bracketed names by each part (`token[]`, `a[token]`).
 * A value shaped like a credential (our keys, JWTs, 43-character tokens, long hex) is masked
 * whatever its name.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  return `${url.slice(0, q)}?${url.slice(q + 1).replace(/[^&;]+/g, redactPair)}`;
}

function decodeQueryPart(part: string): string {
  const spaced = part.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

function isSecretName(name: string): boolean {
  return name
    .toLowerCase()
    .split(/[[\]]+/)
    .some((segment) => SECRET_PARAMS.has(segment.trim()));
}

function redactPair(pair: string): string {
  const eq = pair.indexOf('=');
  const name = decodeQueryPart(eq === -1 ? pair : pair.slice(0, eq));
  if (eq === -1) return encodeURIComponent(name);
  const value = decodeQueryPart(pair.slice(eq + 1));
  const secret = isSecretName(name) || scrubErrorText(value, Infinity) !== value;
  return `${encodeURIComponent(name)}=${secret ? REDACTED : encodeURIComponent(value)}`;
}

/** Credential shapes that may be quoted in outside services' error text. */
const SECRET_PATTERNS: RegExp[] = [
  // Our API keys, webhook secrets, bearer values, JWTs.
  /\bsvc_[A-Za-z0-9]{8}_[A-Za-z0-9_-]+/g,
  /\bwhsec_[A-Za-z0-9+/=_-]+/g,
  /\bBearer\s+[^\s"',;]+/gi,
  /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g,
  // Common provider key prefixes (email provider, OpenAI-style, Anthropic-style).
  /\b(?:re|sk|sk-ant|pk|rk)[-_][A-Za-z0-9_-]{8,}/g,
  // name=value and "name": "value" pairs whose name is a credential.
  /((?:token|access_token|api[_-]?key|apikey|secret|password|signature|authorization)(?:%3D|=|"\s*:\s*"|'\s*:\s*'|:\s*))[^\s"'&,;}]+/gi,
  // Bare 32-byte random values in base64url (accept tokens) or longer hex strings (keys, digests).
  /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
  /\b[0-9a-f]{40,}\b/gi,
];

/** Outside services' error text as it may be logged and stored: scrubbed of credentials, then bounded. */
export function scrubErrorText(text: string, max = 500): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS)
    out = out.replace(pattern, (match, prefix?: unknown) => (typeof prefix === 'string' ? `${prefix}${REDACTED}` : REDACTED));
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

/** A database URL fit for a log line: the password (in the user part or the query) replaced. */
export function redactDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return REDACTED;
  }
  // `[redacted]` would be percent-encoded inside the URL; a plain word reads better there.
  if (parsed.password !== '') parsed.password = 'redacted';
  for (const name of [...parsed.searchParams.keys()]) if (/pass/i.test(name)) parsed.searchParams.set(name, 'redacted');
  return parsed.toString();
}
