import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import { IsInt, IsNumber, IsObject, IsOptional, IsString, Max, MaxLength, Min, MinLength, validateSync } from 'class-validator';
import {
  Latitude,
  LocationName,
  NumberRange,
  OPTIONAL_FROM_TEXT,
  OptionalObject,
  OptionalString,
  OptionalText,
  QueryInt,
  QueryOffset,
  TextLength,
} from './validation';

/** Every failed check's message, per property, in the order the API reports them (errors.ts flattens them so). */
function messages(cls: new () => object, body: Record<string, unknown>) {
  return validateSync(plainToInstance(cls, body)).map((e) => [e.property, Object.values(e.constraints ?? {})]);
}

const BAD_VALUES = [undefined, null, '', 'abc', '12', 12, -1, 0, 0.5, 1e9, -1e9, NaN, Infinity, 'x'.repeat(300), true, {}, []];

/*
 * Each composed rule against the stacked decorators it replaced in the DTOs, written as they were: same checks,
 * same messages, same order, for every kind of bad value.
 */
const limit = { message: 'limit must be a whole number from 1 to 50' };
const offset = { message: 'offset must be a whole number of at least 0' };

class Stacked {
  @IsOptional()
  @Type(() => Number)
  @IsNumber({}, { message: 'Latitude must be a number between -90 and 90' })
  @Min(-90, { message: 'Latitude must be a number between -90 and 90' })
  @Max(90, { message: 'Latitude must be a number between -90 and 90' })
  lat?: number;

  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'Choose a location' })
  @Min(-90, { message: 'Choose a location' })
  @Max(90, { message: 'Choose a location' })
  bodyLat: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt(limit)
  @Min(1, limit)
  @Max(50, limit)
  limit = 10;

  @IsOptional()
  @Type(() => Number)
  @IsInt(offset)
  @Min(0, offset)
  @Max(100000, offset)
  offset = 0;

  @MaxLength(100, { message: 'Title must be at most 100 characters' })
  @MinLength(5, { message: 'Title must be at least 5 characters' })
  @IsString({ message: 'Title must be at least 5 characters' })
  title: string;

  @IsOptional()
  @MaxLength(200, { message: 'Location name must be at most 200 characters' })
  @IsString({ message: 'Location name must be text' })
  locationName?: string;

  @IsOptional()
  @MaxLength(20, { message: 'That image cannot be used' })
  @IsString({ message: 'That image cannot be used' })
  imagePath?: string;

  @IsOptional()
  @IsString({ message: 'email must be a string' })
  email?: string;

  @IsOptional()
  @IsObject({ message: 'data must be an object' })
  data?: Record<string, unknown>;
}

class Composed {
  @Latitude('Latitude must be a number between -90 and 90', OPTIONAL_FROM_TEXT)
  lat?: number;

  @NumberRange(-90, 90, 'Choose a location')
  bodyLat: number;

  @QueryInt(1, 50)
  limit = 10;

  @QueryOffset()
  offset = 0;

  @TextLength(5, 100, { tooShort: 'Title must be at least 5 characters', tooLong: 'Title must be at most 100 characters' })
  title: string;

  @LocationName(200)
  locationName?: string;

  @OptionalText(20, { notText: 'That image cannot be used', tooLong: 'That image cannot be used' })
  imagePath?: string;

  @OptionalString() email?: string;
  @OptionalObject() data?: Record<string, unknown>;
}

const FIELDS = ['lat', 'bodyLat', 'limit', 'offset', 'title', 'locationName', 'imagePath', 'email', 'data'];

describe('composed validation rules', () => {
  it.each(FIELDS)('%s: the same messages, in the same order, as the stacked decorators', (field) => {
    for (const value of BAD_VALUES) {
      const body = { [field]: value };
      expect([value, messages(Composed, body)]).toEqual([value, messages(Stacked, body)]);
    }
  });

  it('keeps the messages a client sees', () => {
    expect(messages(Composed, { lat: '91', bodyLat: 1, title: 42, locationName: 7, limit: '0', offset: '-1', email: 3, data: 'x' })).toEqual([
      ['lat', ['Latitude must be a number between -90 and 90']],
      ['limit', ['limit must be a whole number from 1 to 50']],
      ['offset', ['offset must be a whole number of at least 0']],
      ['title', ['Title must be at least 5 characters', 'Title must be at least 5 characters', 'Title must be at most 100 characters']],
      ['locationName', ['Location name must be text', 'Location name must be at most 200 characters']],
      ['email', ['email must be a string']],
      ['data', ['data must be an object']],
    ]);
  });

  it('converts text only when asked to', () => {
    const composed = plainToInstance(Composed, { lat: '33.5', bodyLat: '33.5', limit: '20' });
    expect(composed).toMatchObject({ lat: 33.5, bodyLat: '33.5', limit: 20 });
    expect(messages(Composed, { bodyLat: '33.5', title: 'A good title' })).toEqual([
      ['bodyLat', ['Choose a location', 'Choose a location', 'Choose a location']],
    ]);
  });
});
