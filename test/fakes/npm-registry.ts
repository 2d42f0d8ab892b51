// A tiny npm registry on 127.0.0.1: packuments at GET /<name> (scoped names URL-encoded) and tarballs
// at GET /-/<file>, as npm fetches them. Packages are made from a name, a version and their
// dependencies with `npm pack`, so npm installs them as it would any registry's.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Test } from 'tap';
import { runOwned } from '../helpers.js';

export interface FakePackage {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
}

export class NpmRegistry {
  /** Requests seen, by path. */
  readonly requests: string[] = [];
  private readonly packuments = new Map<string, object>();
  private readonly tarballs = new Map<string, Buffer>();

  private constructor(private readonly server: http.Server) {}

  static async start(t: Test, packages: FakePackage[]): Promise<NpmRegistry> {
    const server = http.createServer();
    const registry = new NpmRegistry(server);
    server.on('request', (req, res) => registry.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const dir = t.testdir();
    for (const pkg of packages) await registry.publish(t, dir, pkg);
    return registry;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  private async publish(t: Test, dir: string, pkg: FakePackage): Promise<void> {
    const source = path.join(dir, pkg.name.replace('/', '+'));
    mkdirSync(source, { recursive: true });
    writeFileSync(path.join(source, 'package.json'), JSON.stringify({ ...pkg, main: 'index.js' }));
    writeFileSync(path.join(source, 'index.js'), `module.exports = ${JSON.stringify({ name: pkg.name })};\n`);
    const packed = await runOwned(t, 'npm', ['pack', '--json', '--pack-destination', dir], { cwd: source });
    if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
    const file = (JSON.parse(packed.stdout) as { filename: string }[])[0].filename;
    const tarball = readFileSync(path.join(dir, file));
    const name = path.basename(file);
    this.tarballs.set(name, tarball);
    const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
    const shasum = createHash('sha1').update(tarball).digest('hex');
    this.packuments.set(pkg.name, {
      name: pkg.name,
      'dist-tags': { latest: pkg.version },
      versions: {
        [pkg.version]: { ...pkg, dist: { tarball: `${this.url}-/${name}`, integrity, shasum } },
      },
    });
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    this.requests.push(url);
    const tarball = url.startsWith('/-/') ? this.tarballs.get(url.slice(3)) : undefined;
    if (tarball !== undefined) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
      return;
    }
    const packument = this.packuments.get(url.slice(1));
    if (packument === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
  }
}
