import { useApp } from 'ink';
import { useEffect, useState, type ReactNode } from 'react';
import { Spinner } from './spinner.js';

type TaskState<T> = { status: 'pending' } | { status: 'done'; value: T } | { status: 'failed'; error: unknown };

/**
 * A spinner while `promise` is pending, then `children(value)`; then ink exits (with the error
 * when the promise failed, so that waitUntilExit() rejects and the caller reports it).
 */
export function Task<T>({ promise, label, children }: { promise: Promise<T>; label: string; children: (value: T) => ReactNode }) {
  const { exit } = useApp();
  const [state, setState] = useState<TaskState<T>>({ status: 'pending' });
  useEffect(() => {
    let live = true;
    promise.then(
      (value) => live && setState({ status: 'done', value }),
      (error: unknown) => live && setState({ status: 'failed', error }),
    );
    return () => {
      live = false;
    };
  }, [promise]);
  useEffect(() => {
    if (state.status === 'done') exit();
    else if (state.status === 'failed') exit(state.error instanceof Error ? state.error : new Error(String(state.error)));
  }, [state, exit]);
  if (state.status === 'pending') return <Spinner label={label} />;
  if (state.status === 'done') return <>{children(state.value)}</>;
  return null;
}
