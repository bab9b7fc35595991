// Integration specs start real services and databases; on a shared 2-core machine that can take a while.
// This is a safety net against hangs, not a performance assertion.
jest.setTimeout(120_000);
