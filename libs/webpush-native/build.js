// Builds the addon against the installed Node when the package is installed (npm runs this). A machine without a C
// toolchain still installs: Beacon then uses the pure-JS path and says so at start and in /ready (see index.js).
const { spawnSync } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const gyp = process.env.npm_config_node_gyp;
const [cmd, args] = gyp ? [process.execPath, [gyp, 'rebuild']] : ['node-gyp', ['rebuild']];
const r = spawnSync(cmd, args, { cwd: __dirname, encoding: 'utf8', shell: !gyp });
const log = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`;
writeFileSync(join(__dirname, 'build.log'), log);
if (r.status === 0) console.log('@beacon/webpush-native: built');
else console.warn('@beacon/webpush-native: not built (see libs/webpush-native/build.log); Web Push encryption will use node:crypto');
