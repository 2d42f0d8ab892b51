import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageJson(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'package.json');
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('package.json not found');
}

/** The package version (works from src/ under tsx and from dist/src/). */
export const version: string = (JSON.parse(readFileSync(findPackageJson(), 'utf8')) as { version: string }).version;
