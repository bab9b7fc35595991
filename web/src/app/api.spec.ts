import { createIntl } from 'react-intl';
import type { Catalogue } from '@/i18n/catalogue';
import { errorMessage, toApiError, type ApiError } from './api';

// A reader of each language, with the app's real catalogue (issue #41); English is the code's own words.
const reader = (locale: string, messages: Catalogue = {}) =>
  createIntl({ locale, defaultLocale: 'en', messages: messages as Record<string, string>, onError: (e) => expect(e.code).toBe('MISSING_TRANSLATION') });
const english = reader('en-US');
const spanish = reader('es', require('@/i18n/catalogues/es').default);
const french = reader('fr', require('@/i18n/catalogues/fr').default);

const refusal = (code: string, message: string, details?: unknown) => ({ status: 400, data: { statusCode: 400, code, message, details } });

describe('errorMessage', () => {
  it("gives an English reader the server's own message, which is the spec's text", () => {
    const error: ApiError = { statusCode: 409, code: 'alert_in_effect', message: 'This alert is still in effect: it can be dismissed once it has ended' };
    expect(errorMessage(error, 'Failed to update alert', english)).toBe('This alert is still in effect: it can be dismissed once it has ended');
  });

  it("gives a Spanish reader the catalogue's message for a known code, not the server's English", () => {
    const error: ApiError = { statusCode: 400, code: 'invalid_credentials', message: 'Invalid login credentials' };
    expect(errorMessage(error, 'No se pudo iniciar sesión.', spanish)).toBe('Correo electrónico o contraseña incorrectos.');
    expect(errorMessage({ statusCode: 409, code: 'alert_in_effect', message: 'This alert is still in effect' }, 'x', french)).toMatch(
      /^Cette alerte est toujours en vigueur/,
    );
  });

  it("gives a reader of another language the screen's fallback for a code the catalogue does not know", () => {
    const error: ApiError = { statusCode: 400, code: 'template_name_taken', message: 'A template with this name already exists' };
    expect(errorMessage(error, 'No se guardó la plantilla', spanish)).toBe('No se guardó la plantilla');
    // an unknown code, and an error with no code at all
    expect(errorMessage({ code: 'made_up', message: 'Whatever' }, 'Error de la pantalla', spanish)).toBe('Error de la pantalla');
    expect(errorMessage(new Error('boom'), 'Error de la pantalla', spanish)).toBe('Error de la pantalla');
  });

  it('prefers the screen fallback over a code that says only that something failed', () => {
    expect(errorMessage({ statusCode: 500, code: 'internal_error', message: 'Internal server error' }, 'No se pudo actualizar la alerta', spanish)).toBe(
      'No se pudo actualizar la alerta',
    );
  });

  it('says when to try again after too many requests, in the reader’s language', () => {
    const limited = toApiError(refusal('rate_limited', 'Too many requests. Please try again in 30 seconds.', { retryAfter: 30 }), english);
    expect(errorMessage(limited, 'x', english)).toBe('Too many requests. Please try again in 30 seconds.');
    expect(errorMessage(limited, 'x', spanish)).toBe('Demasiadas solicitudes. Inténtelo de nuevo en 30 segundos.');
    expect(errorMessage({ code: 'rate_limited', message: 'Too many', details: { retryAfter: 120 } }, 'x', spanish)).toBe(
      'Demasiadas solicitudes. Inténtelo de nuevo en 2 minutos.',
    );
  });

  it('falls back when there is no error message at all', () => {
    expect(errorMessage(undefined, 'Failed to save', english)).toBe('Failed to save');
    expect(errorMessage(undefined, 'No se pudo guardar', spanish)).toBe('No se pudo guardar');
  });
});

describe('toApiError', () => {
  it("keeps the server's message for an English reader and gives another reader the catalogue's", () => {
    const error = refusal('weak_password', 'Password should be at least 8 characters.');
    expect(toApiError(error, english)).toEqual({
      statusCode: 400,
      code: 'weak_password',
      message: 'Password should be at least 8 characters.',
      details: undefined,
    });
    expect(toApiError(error, spanish).message).toBe('Esta contraseña es demasiado débil. Use al menos 8 caracteres.');
    // a code the catalogue does not know keeps the server's words (errorMessage() then prefers the screen's)
    expect(toApiError(refusal('template_name_taken', 'Taken'), spanish).message).toBe('Taken');
  });

  it('says a lost connection and an empty failure in the reader’s language', () => {
    expect(toApiError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }, english)).toEqual({
      statusCode: 0,
      code: 'network_error',
      message: 'Could not reach Beacon. Check your connection and try again.',
    });
    expect(toApiError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }, spanish).message).toBe(
      'No se pudo conectar con Beacon. Compruebe su conexión e inténtelo de nuevo.',
    );
    expect(toApiError({ status: 502, data: '<html>Bad gateway</html>' }, english)).toMatchObject({
      code: 'error',
      message: 'Something went wrong. Please try again.',
    });
    expect(toApiError({ status: 502, data: '<html>Bad gateway</html>' }, spanish).message).toBe('Algo salió mal. Inténtelo de nuevo.');
  });
});
