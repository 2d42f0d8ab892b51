/**
 * An in-process runtime's model files, each loaded on first use and kept; a load that failed is
 * tried again on the next call (the file may have been fixed).
 */
export class LoadedOnce<T> {
  private readonly loads = new Map<string, Promise<T>>();

  constructor(private readonly open: (name: string) => Promise<T>) {}

  get(name: string): Promise<T> {
    let loading = this.loads.get(name);
    if (loading === undefined) {
      loading = this.open(name);
      this.loads.set(name, loading);
      loading.catch(() => this.loads.delete(name));
    }
    return loading;
  }

  /** Forgets every model (the runtime has freed them). */
  clear(): void {
    this.loads.clear();
  }
}
