// The API report: the public surface of every entry, as API Extractor prints it from the built
// .d.ts files, checked in under etc/api/. `npm test` runs this in check mode after the build and
// fails when the surface changed without the report being updated, so every addition, removal or
// signature change is a reviewed decision; `npm run api:update` rewrites the reports after a
// deliberate change. It also prints the root entry's number of runtime values and holds it to 80.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const MAX_ROOT_VALUES = 80;
const root = fileURLToPath(new URL('../', import.meta.url));
const update = process.argv.includes('--update');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const reportFolder = join(root, 'etc', 'api');
const work = join(tmpdir(), `cm-api-${process.pid}`);
mkdirSync(reportFolder, { recursive: true });
mkdirSync(work, { recursive: true });

const entries = Object.entries(manifest.exports).filter(([, target]) => typeof target === 'object');
let failed = false;
try {
  for (const [subpath, target] of entries) {
    const name = subpath === '.' ? 'index' : subpath.slice(2).replaceAll('/', '-');
    const config = ExtractorConfig.prepare({
      configObjectFullPath: join(work, `${name}.json`),
      packageJsonFullPath: join(root, 'package.json'),
      configObject: {
        projectFolder: root,
        mainEntryPointFilePath: join(root, target.import.types),
        bundledPackages: [],
        compiler: {
          overrideTsconfig: {
            compilerOptions: {
              target: 'es2022',
              module: 'nodenext',
              moduleResolution: 'nodenext',
              strict: true,
              skipLibCheck: true,
              lib: ['es2022', 'dom'],
              types: ['node'],
            },
            files: [join(root, target.import.types)],
          },
        },
        apiReport: {
          enabled: true,
          reportFileName: `${name}.api.md`,
          reportFolder,
          reportTempFolder: work,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          compilerMessageReporting: { default: { logLevel: 'warning' } },
          // The report is the point here; TSDoc style is checked by TypeDoc (npm run docs).
          extractorMessageReporting: {
            default: { logLevel: 'none' },
            'ae-missing-release-tag': { logLevel: 'none' },
          },
          tsdocMessageReporting: { default: { logLevel: 'none' } },
        },
      },
    });
    const result = Extractor.invoke(config, {
      localBuild: update,
      showVerboseMessages: false,
      messageCallback: (message) => {
        if (message.logLevel === 'warning' || message.logLevel === 'error') {
          message.handled = true;
          console.error(`${subpath}: ${message.text}`);
        } else message.handled = true;
      },
    });
    if (result.apiReportChanged && !update) {
      failed = true;
      console.error(
        `API report for '${subpath}' changed: run \`npm run api:update\`, review etc/api/${name}.api.md and commit it`,
      );
    } else if (!result.succeeded) {
      failed = true;
      console.error(`API report for '${subpath}' failed (${result.errorCount} errors)`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

// The root entry's runtime values, as users import them.
const values = Object.keys(await import(pathToFileURL(join(root, 'dist', 'index.js')).href));
console.log(`root entry: ${values.length} runtime values (limit ${MAX_ROOT_VALUES})`);
if (values.length > MAX_ROOT_VALUES) failed = true;
if (failed) process.exit(1);
console.log(`API reports: ${entries.length} entries ${update ? 'written' : 'match etc/api/'}`);
