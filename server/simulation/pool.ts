/** Stop the worker threads (tests and processes exit cleanly). */
export async function shutdownSimulationThreads(): Promise<void> {}
/** Start the threads and load these country folders in each, so the first simulation does not pay for it. */
export async function warmSimulationThreads(modelFolders: string[], threads?: number): Promise<void> { void modelFolders; void threads; }
