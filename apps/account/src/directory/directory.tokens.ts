/** Injection token of the `DirectoryConfig` read at start. */
export const DIRECTORY_CONFIG = Symbol('DIRECTORY_CONFIG');
