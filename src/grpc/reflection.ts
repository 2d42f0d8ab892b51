import type { Server, ServiceDefinition, UntypedHandleCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';

/** What `ReflectionService.addToServer` needs of a server: a place to add the two reflection services. */
type ServiceSink = Pick<Server, 'addService'>;

/**
 * Server reflection (v1 and v1alpha) that describes the package only on its first call.
 * `ReflectionService` decodes, indexes and re-encodes every file descriptor when it is built, once
 * per reflection version: about 5 MB an idle daemon would hold for the `grpcurl describe` an
 * operator runs now and then (docs/benchmarks.md, row 4). The services themselves are registered at
 * start, so reflection answers as before; `describe` loads the package definition when first called.
 */
export function lazyReflection(describe: () => PackageDefinition): (server: ServiceSink) => void {
  // The reflection services' own definitions, from a ReflectionService over an empty package (cheap).
  const definitions: ServiceDefinition[] = [];
  new ReflectionService({}).addToServer({ addService: (definition) => void definitions.push(definition) });

  // Both ReflectionServices add v1, then v1alpha: the real one's handlers line up with `definitions`.
  let built: UntypedServiceImplementation[] | undefined;
  const forward =
    (index: number, method: string) =>
    (...call: unknown[]): void => {
      if (built === undefined) {
        const found: UntypedServiceImplementation[] = [];
        new ReflectionService(describe()).addToServer({ addService: (_definition, handlers) => void found.push(handlers) });
        built = found;
      }
      (built[index]?.[method] as (...call: unknown[]) => void)(...call);
    };
  const deferred = definitions.map((definition, index): UntypedServiceImplementation =>
    Object.fromEntries(Object.keys(definition).map((method) => [method, forward(index, method) as UntypedHandleCall])),
  );
  return (server) => definitions.forEach((definition, index) => server.addService(definition, deferred[index] ?? {}));
}
