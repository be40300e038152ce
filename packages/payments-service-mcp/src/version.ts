/** This package's version, reported to MCP hosts. */
export const VERSION = '0.1.0';
