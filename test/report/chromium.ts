/**
 * Headless Chromium for screenshot tests: find the Debian binary and render one local HTML
 * file to a PNG. The flags keep Chromium off the network (this machine's network is closed,
 * and background connections otherwise fail many at a time) and away from any profile state.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';

const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome'];

/** Path of a Chromium binary on PATH (or $CHROMIUM), or null when none is installed. */
export function findChromium(): string | null {
  const fromEnv = process.env.CHROMIUM;
  if (fromEnv && fs.existsSync(fromEnv)) return fromEnv;
  for (const name of CANDIDATES) {
    const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    const found = r.status === 0 ? r.stdout.trim() : '';
    if (found) return found;
  }
  return null;
}

export interface ScreenshotOptions {
  readonly width: number;
  readonly height: number;
  readonly timeoutMs?: number;
}

/** Renders `htmlFile` at device scale 1 into `pngFile`; throws with Chromium's stderr on failure. */
export function screenshotHtml(chromium: string, htmlFile: string, pngFile: string, options: ScreenshotOptions): void {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-chromium-profile-'));
  try {
    const args = [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-scrollbars',
      '--force-device-scale-factor=1',
      `--user-data-dir=${profile}`,
      `--screenshot=${pngFile}`,
      `--window-size=${options.width},${options.height}`,
      pathToFileURL(htmlFile).href,
    ];
    const r = spawnSync(chromium, args, { encoding: 'utf8', timeout: options.timeoutMs ?? 60000 });
    if (r.error) throw new Error(`chromium (${chromium}) failed to run: ${r.error.message}`);
    if (r.status !== 0 || !fs.existsSync(pngFile)) {
      throw new Error(`chromium exited with ${r.status ?? r.signal} and wrote no ${pngFile}:\n${r.stderr}`);
    }
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
}
