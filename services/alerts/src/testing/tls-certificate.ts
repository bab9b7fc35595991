// The helper moved to libs/testing (the SMTP relay of the managed-services specs uses it too).
export { throwawayCertificate, type ThrowawayCertificate } from '@beacon/testing';
