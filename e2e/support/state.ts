import { join } from 'node:path';

export const STATE_FILE = join(__dirname, '..', '..', 'test-results', 'e2e-state.json');

export interface E2eState {
  pid: number;
  dbName: string;
  adminUrl: string;
  redisPrefix: string;
  baseUrl: string;
  /** Where the system expects the Twilio-compatible API (TWILIO_API_URL): a journey starts the fake there. */
  twilioUrl: string;
}
