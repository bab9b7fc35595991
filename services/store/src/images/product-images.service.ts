import { Injectable } from '@nestjs/common';
import { PRODUCT_CATEGORY_INFO } from '@beacon/contracts';
import { CATALOGUE, CatalogueItem } from '../seed/catalogue';
import { renderIllustration } from './illustrations';

/** Path under the service prefix where the illustration of a catalogue item is served. */
export const imagePath = (slug: string) => `/api/store/images/${slug}.svg`;

@Injectable()
export class ProductImagesService {
  private readonly bySlug = new Map<string, CatalogueItem>(CATALOGUE.map((item) => [item.slug, item]));
  private readonly cache = new Map<string, string>();

  /** The SVG for `<slug>.svg`, or undefined for anything that is not a catalogue illustration. */
  svgFor(file: string): string | undefined {
    const match = /^([a-z0-9-]+)\.svg$/.exec(file);
    const item = match ? this.bySlug.get(match[1]) : undefined;
    if (!item) return undefined;
    let svg = this.cache.get(item.slug);
    if (!svg) {
      svg = renderIllustration(item.art, PRODUCT_CATEGORY_INFO[item.category].color, item.name);
      this.cache.set(item.slug, svg);
    }
    return svg;
  }
}
