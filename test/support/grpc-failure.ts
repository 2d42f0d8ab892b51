// A raw admin API call that must fail, as the gRPC tests check errors: its status code and the error
// code text and details the daemon puts in the trailing metadata (src/grpc/status.ts).
import { Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import type { Test } from 'tap';
import { adminProtoFileOf } from '../../src/grpc/proto-files.js';
import { loadProtos } from '../../src/grpc/proto.js';
import { socketAddress } from '../../src/grpc/socket-path.js';
import { ERROR_CODE_KEY, ERROR_DETAILS_KEY } from '../../src/grpc/error-keys.js';
import type { Daemon } from '../../src/main.js';

export interface Failure {
  code: number;
  errorCode: string | undefined;
  message: string;
  details: Record<string, any> | undefined;
}

/** Calls of `service`'s rpcs on the daemon's admin socket that must fail; each answers how (closed at teardown). */
export function failingCalls(t: Test, daemon: Daemon, service: string): (name: string, req: object) => Promise<Failure> {
  const file = adminProtoFileOf(service);
  if (file === undefined) throw new Error(`no admin proto file defines ${service}`);
  const methods = loadProtos([file])[`switchyard.admin.v1.${service}`] as unknown as Record<
    string,
    MethodDefinition<object, object>
  >;
  const alias = socketAddress(daemon.grpc.socketPath);
  const client = new Client(`unix:${alias.path}`, credentials.createInsecure());
  t.teardown(() => {
    client.close();
    alias.release();
  });
  return (name, req) =>
    new Promise<Failure>((resolve, reject) => {
      const md = methods[name];
      client.makeUnaryRequest(
        md.path,
        md.requestSerialize,
        md.responseDeserialize,
        req,
        new Metadata(),
        (error: ServiceError | null) => {
          if (error === null) return reject(new Error(`${name} succeeded; expected an error`));
          const code = error.metadata.get(ERROR_CODE_KEY)[0];
          const details = error.metadata.get(ERROR_DETAILS_KEY)[0];
          resolve({
            code: error.code,
            errorCode: typeof code === 'string' ? code : undefined,
            message: error.details,
            details: typeof details === 'string' ? (JSON.parse(details) as Record<string, any>) : undefined,
          });
        },
      );
    });
}
