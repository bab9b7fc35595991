import {
  Ban,
  Bandage,
  CarFront,
  CircleAlert,
  Construction,
  Flashlight,
  HardHat,
  House,
  Info,
  MessageCircle,
  Package,
  RadioTower,
  Siren,
  TrafficCone,
  type LucideIcon,
} from 'lucide-react';
import type { IncidentType, PostCategory, ProductCategory } from '@beacon/contracts';

// The app's own pictures: drawn icons (lucide), not emoji, which render as empty boxes where no emoji font is installed.

export const INCIDENT_TYPE_ICONS: Record<IncidentType, LucideIcon> = {
  'traffic-hazard': Construction,
  crime: Siren,
  accident: CarFront,
  'wrong-way-driver': Ban,
  other: CircleAlert,
};

export const POST_CATEGORY_ICONS: Record<PostCategory, LucideIcon> = {
  'wrong-way-driver': Ban,
  'traffic-tip': TrafficCone,
  'neighborhood-watch': House,
  other: MessageCircle,
};

export const PRODUCT_CATEGORY_ICONS: Record<ProductCategory, LucideIcon> = {
  'Emergency Kits': Package,
  'Safety Electronics': RadioTower,
  'Safety Gear': HardHat,
  'Emergency Electronics': Flashlight,
  'Medical Supplies': Bandage,
  'Traffic Control': TrafficCone,
};

/** A category's icon beside its label: decorative, the label says what it is. */
export function CategoryIcon({ icon: Icon, size = 16 }: { icon: LucideIcon | undefined; size?: number }) {
  return Icon ? <Icon aria-hidden="true" focusable="false" size={size} className="category-icon" /> : null;
}

/** The icon of an informational toast ("this is not available yet"): drawn, like every icon of the app. */
export const INFO_TOAST_ICON = <Info aria-hidden="true" focusable="false" size={18} color="#2563eb" />;
