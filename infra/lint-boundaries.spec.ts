import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..');
const eslintBin = join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');

/** Lints `code` as if it were the file at `path` (relative to the root), with the repository's own config. */
function lint(path: string, code: string) {
  const r = spawnSync(process.execPath, [eslintBin, '--stdin', '--stdin-filename', path, '--format', 'json'], { cwd: root, input: code, encoding: 'utf8' });
  const [result] = JSON.parse(r.stdout || '[]') as { messages: { ruleId: string | null; message: string }[] }[];
  return (result?.messages ?? []).filter((m) => m.ruleId === 'beacon/boundaries').map((m) => m.message);
}

/** The import boundaries `npm run lint` enforces (scripts/eslint-boundaries.mjs). */
describe('lint: import boundaries', () => {
  it('refuses a service file importing another service, and allows its own tree and the libs', () => {
    expect(lint('services/alerts/src/dispatch/x.ts', "import { IncidentsRepository } from '../../../incidents/src/incidents/incidents.repository';\n")).toEqual(
      ['services/alerts must not import services/incidents: share it through libs/ or an event'],
    );
    expect(
      lint(
        'services/alerts/src/dispatch/x.ts',
        "import { AlertsRepository } from '../alerts/alerts.repository';\nimport { JobQueue } from '@beacon/common';\n",
      ),
    ).toEqual([]);
  });

  it("refuses the alerts tree's deliveries/ importing the folders that stand on it, and allows what it stands on", () => {
    const refused = (folder: string) =>
      `services/alerts/src/deliveries must not import services/alerts/src/${folder}: deliveries/ is the floor the HTTP API and the dispatcher both stand on; move what both need down into it`;
    expect(lint('services/alerts/src/deliveries/x.ts', "import { AlertRow } from '../alerts/alert.rows';\n")).toEqual([refused('alerts')]);
    expect(
      lint(
        'services/alerts/src/deliveries/x.ts',
        [
          "import { EligibilityRepository } from '../dispatch/eligibility.repository';",
          "export type { SendableAlert } from '../channels/send-targets.repository';",
          "import { ProgressPublisher } from '../live/progress.publisher';",
          "import { SettingsRepository } from '../settings/settings.repository';",
          '',
        ].join('\n'),
      ),
    ).toEqual([refused('dispatch'), refused('channels'), refused('live'), refused('settings')]);
    expect(
      lint(
        'services/alerts/src/deliveries/x.ts',
        "import type { DispatcherEnv } from '../config/dispatcher-env.dto';\nimport { streamRows } from './cursor';\nimport { JobQueue } from '@beacon/common';\n",
      ),
    ).toEqual([]);
    expect(lint('services/alerts/src/alerts/x.ts', "import { DeliveriesRepository } from '../deliveries/deliveries.repository';\n")).toEqual([]);
  });

  it('lets tests and test helpers start other services', () => {
    expect(lint('services/alerts/src/dispatch/x.integration-spec.ts', "import { gatewayService } from '../../../gateway/src/service';\n")).toEqual([]);
    expect(lint('services/alerts/src/testing/x.ts', "import { gatewayService } from '../../../gateway/src/service';\n")).toEqual([]);
  });

  it('refuses libs importing services or infra', () => {
    expect(lint('libs/common/src/x.ts', "import { alertsService } from '../../../services/alerts/src/service';\n")).toEqual([
      'libs/ must not import services/alerts',
    ]);
  });

  it("refuses the web's shared UI importing a feature", () => {
    expect(lint('web/src/common/x.tsx', "import { useSignOut } from '@/features/auth/useSignOut';\n")).toEqual([
      'web/src/common must not import a feature (features/auth): move the shared part to common/ or the app shell',
    ]);
    expect(lint('web/src/common/x.tsx', "import { LoginPage } from '@/features/auth';\n")).toEqual([
      'web/src/common must not import a feature (features/auth): move the shared part to common/ or the app shell',
    ]);
  });

  it('refuses a feature importing an admin console, and lets the console build on the user feature', () => {
    const refused =
      'features/alerts must not import features/alerts-admin: an admin console builds on the features it administers, never the reverse; keep what both need in the user feature (its index) or common/';
    expect(lint('web/src/features/alerts/x.tsx', "import { isFinished } from '@/features/alerts-admin/QuickSendPage';\n")).toEqual([refused]);
    expect(lint('web/src/features/alerts/x.ts', "export { adminAlertsApi } from '../alerts-admin/alerts-admin.api';\n")).toEqual([refused]);
    expect(lint('web/src/features/store/x.tsx', "import { AdminDashboardPage } from '@/features/alerts-admin';\n")).toEqual([
      'features/store must not import features/alerts-admin: an admin console builds on the features it administers, never the reverse; keep what both need in the user feature (its index) or common/',
    ]);
    expect(
      lint(
        'web/src/features/alerts-admin/x.tsx',
        "import { LoadError } from '@/features/alerts';\nimport { useNow } from '@/common/useNow';\nimport { Pager } from './ui';\n",
      ),
    ).toEqual([]);
    expect(
      lint('web/src/app/routes.tsx', "import { AdminAlertsPage } from '@/features/alerts-admin';\nimport { UserAlertsPage } from '@/features/alerts';\n"),
    ).toEqual([]);
  });
});
