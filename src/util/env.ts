/** Environment variables where there is a process (Node); undefined in a page or worker. */
export function envVar(name: string): string | undefined {
  return (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name];
}
