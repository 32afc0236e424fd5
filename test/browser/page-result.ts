/** What a browser page of the MSW-worker tests leaves for the test: `window.__result`, or the error. */
export function reportResult(run: () => Promise<unknown>): void {
  const page = window as unknown as { __result?: unknown };
  run().then(
    (result) => {
      page.__result = result;
    },
    (error: unknown) => {
      page.__result = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    },
  );
}
