// Everything the CLI takes from grpc-js and proto-loader, in one module. `npm run build` replaces its
// compiled file with a bundle of those libraries and protobufjs (src/cli/views/bundle.mjs): loaded
// from node_modules they are about 160 CommonJS files, each resolved, read and compiled on its own,
// on every command; one file loads in about two thirds of that (docs/benchmarks.md, row 11). Only the
// CLI imports this module: the daemon's gRPC server keeps node_modules' copies.
export { Client, credentials, Metadata, status, type ChannelCredentials, type ServiceError } from '@grpc/grpc-js';
export { loadSync, type MessageTypeDefinition, type MethodDefinition, type PackageDefinition } from '@grpc/proto-loader';
