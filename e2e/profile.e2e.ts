import { expect, test, type Page } from '@playwright/test';
import { generateSync } from 'otplib';
import { createUser, signIn } from './support/users';

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

const STEP_MS = 30_000;

/**
 * Codes as an authenticator app shows them, each for a later 30 s step than the one before: the identity service
 * accepts a step within one of its own and never a step it has already accepted (replay), so a journey that
 * signs in twice in a minute needs the steps ahead. A code is only handed out with at least 10 s left to enter it.
 */
function authenticatorApp(secret: string) {
  let last = -Infinity;
  return {
    async code(): Promise<string> {
      for (;;) {
        const now = Date.now();
        const current = Math.floor(now / STEP_MS);
        let step = Math.max(last + 1, current - 1);
        if ((step + 2) * STEP_MS - now < 10_000) step += 1;
        if (step <= current + 1) {
          last = step;
          return generateSync({ secret, epoch: (step * STEP_MS) / 1000 });
        }
        await new Promise((resolve) => setTimeout(resolve, (step - 1) * STEP_MS - now + 100));
      }
    },
    /** A code that no step the service accepts right now has. */
    wrongCode(): string {
      const valid = new Set([-1, 0, 1].map((d) => generateSync({ secret, epoch: (Date.now() + d * STEP_MS) / 1000 })));
      for (let i = 0; ; i++) {
        const code = String(i).padStart(6, '0');
        if (!valid.has(code)) return code;
      }
    },
  };
}

async function signOutFromProfile(page: Page) {
  await page.getByLabel('Account').getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByText('Signed out successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
}

async function submitPassword(page: Page, user: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function changePasswordOnProfile(page: Page, next: string) {
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByLabel('New password', { exact: true }).fill(next);
  await page.getByLabel('Confirm new password', { exact: true }).fill(next);
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByText('Password updated successfully!')).toBeVisible();
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.name} width`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('profile: change the password, then sign in with the new one', async ({ page, request }) => {
      const user = await createUser(request, 'pwchange');
      await signIn(page, user);
      const next = 'a-brand-new-passphrase-42';
      await changePasswordOnProfile(page, next);

      await signOutFromProfile(page);
      await submitPassword(page, user);
      await expect(page.getByText('Invalid login credentials')).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      await signIn(page, { email: user.email, password: next });
    });
  });
}

test('two-factor authentication: enable it on the profile, sign in with a code, change the password, turn it off', async ({ page, request }) => {
  // codes come in 30 s steps: the journey may wait for the next step before its last sign-in
  test.slow();
  const user = await createUser(request, 'twofa');
  await signIn(page, user);

  await page.goto('/profile');
  const twoFactor = page.getByRole('region', { name: 'Two-Factor Authentication' });
  await twoFactor.getByRole('button', { name: 'Enable two-factor authentication' }).click();
  const qr = twoFactor.getByRole('img', { name: 'QR code to add Beacon to your authenticator app' });
  await expect(qr).toBeVisible();
  // the whole SVG reached the browser and decodes as an image (a '#' in it would cut the data: URL short)
  expect(
    await qr.evaluate((img: HTMLImageElement) =>
      img.decode().then(
        () => 'decoded',
        (e: Error) => e.message,
      ),
    ),
  ).toBe('decoded');
  const secret = (await twoFactor.locator('code.twofa-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const app = authenticatorApp(secret);
  await twoFactor.getByLabel('Verification code').fill(await app.code());
  await twoFactor.getByRole('button', { name: 'Verify and Enable' }).click();
  await expect(page.getByText('Two-factor authentication enabled')).toBeVisible();
  await expect(twoFactor.getByText('Enabled', { exact: true })).toBeVisible();
  await signOutFromProfile(page);

  // the password alone is half a sign-in: the code is asked for, and protected pages wait for it
  await submitPassword(page, user);
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/dashboard/community');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await page.getByLabel('Authentication code').fill(app.wrongCode());
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByText('Invalid TOTP code entered')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Authentication code').fill(await app.code());
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByText('Signed in successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/community$/);

  // the session is aal2 now, so the identity service lets the password change
  const next = 'two-factor-passphrase-77';
  await changePasswordOnProfile(page, next);
  await signOutFromProfile(page);

  await submitPassword(page, user);
  await expect(page.getByText('Invalid login credentials')).toBeVisible();
  await submitPassword(page, { email: user.email, password: next });
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await page.getByLabel('Authentication code').fill(await app.code());
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // removing a verified factor needs aal2 too; afterwards the password is enough again
  await page.goto('/profile');
  await twoFactor.getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByText('Two-factor authentication turned off')).toBeVisible();
  await expect(twoFactor.getByRole('button', { name: 'Enable two-factor authentication' })).toBeVisible();
  await signOutFromProfile(page);
  await signIn(page, { email: user.email, password: next });
});

test('cancelling the code step signs out: protected pages send the visitor to an empty sign-in form', async ({ page, request }) => {
  const user = await createUser(request, 'twofa-cancel');
  await signIn(page, user);
  await page.goto('/profile');
  const twoFactor = page.getByRole('region', { name: 'Two-Factor Authentication' });
  await twoFactor.getByRole('button', { name: 'Enable two-factor authentication' }).click();
  const secret = (await twoFactor.locator('code.twofa-secret').textContent())!.trim();
  await twoFactor.getByLabel('Verification code').fill(await authenticatorApp(secret).code());
  await twoFactor.getByRole('button', { name: 'Verify and Enable' }).click();
  await expect(page.getByText('Two-factor authentication enabled')).toBeVisible();
  await signOutFromProfile(page);

  await submitPassword(page, user);
  await page.getByRole('button', { name: 'Cancel and sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByLabel('Authentication code')).toHaveCount(0);
});
