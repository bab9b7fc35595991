import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import type { Request } from 'express';
import { ApiErrors, AppError } from '@beacon/common';
import { unknownLanguages, unsupportedLanguagesMessage } from './dto/alert-translations.dto';

/**
 * Refuses a body whose `translations` names a language Beacon does not have, by the keys the client sent. The
 * validation pipe deletes "__proto__" and "constructor" keys before any DTO sees them, and building the DTO loses
 * other Object.prototype names such as "toString": a translation under one of them was dropped silently. Runs before
 * the pipes, on the routes whose DTO has an AlertTranslationsField, and answers as the DTO does for any unknown code.
 */
@Injectable()
class TranslationKeysInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler) {
    const body: unknown = ctx.switchToHttp().getRequest<Request>().body;
    const translations: unknown =
      body && typeof body === 'object' && Object.hasOwn(body, 'translations') ? (body as { translations: unknown }).translations : null;
    if (translations && typeof translations === 'object' && !Array.isArray(translations)) {
      const unknown = unknownLanguages(translations);
      if (unknown.length) {
        const message = unsupportedLanguagesMessage(unknown);
        throw new AppError(400, 'validation_failed', message, { fields: [{ field: 'translations', message }] });
      }
    }
    return next.handle();
  }
}

/** For a route whose body has an AlertTranslationsField: its language codes checked as sent, and the error documented. */
export const TranslationKeysChecked = () => applyDecorators(UseInterceptors(TranslationKeysInterceptor), ApiErrors({ 400: ['validation_failed'] }));
