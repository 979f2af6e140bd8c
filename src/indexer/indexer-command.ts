export async function indexerCommand(argv: string[]): Promise<number> { console.error("not yet", argv); return 1; }
