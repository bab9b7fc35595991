import { Injectable } from '@nestjs/common';
import type { ProductCategory } from '@beacon/contracts';
import { CATALOGUE, CatalogueItem } from '../seed/catalogue';
import { renderIllustration } from './illustrations';

/** Path under the service prefix where the illustration of a catalogue item is served. */
export const imagePath = (slug: string) => `/api/store/images/${slug}.svg`;

/** The category's colour in its illustrations: dark enough for white text at WCAG AA (4.5:1), as on the store page. */
const ILLUSTRATION_COLORS: Record<ProductCategory, string> = {
  'Emergency Kits': '#b91c1c',
  'Safety Electronics': '#1d4ed8',
  'Safety Gear': '#c2410c',
  'Emergency Electronics': '#6d28d9',
  'Medical Supplies': '#047857',
  'Traffic Control': '#a16207',
};

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
      svg = renderIllustration(item.art, ILLUSTRATION_COLORS[item.category], item.name);
      this.cache.set(item.slug, svg);
    }
    return svg;
  }
}
