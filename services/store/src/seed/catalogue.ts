import type { ProductCategory } from '@beacon/contracts';
import type { ArtKind } from '../images/illustrations';

export interface CatalogueItem {
  /** Stable key: the image file name and the source of the product's fixed id. */
  slug: string;
  name: string;
  description: string;
  price: number;
  category: ProductCategory;
  art: ArtKind;
  featured?: boolean;
  inStock?: boolean;
  /** Retailer search page the product links to (affiliate products only). */
  affiliateUrl?: string;
  /** How many days ago the product was added (drives the 'newest' sort). */
  addedDaysAgo: number;
}

const amazon = (query: string) => `https://www.amazon.com/s?k=${encodeURIComponent(query).replace(/%20/g, '+')}`;

/** The demo catalogue: real kinds of safety products at believable prices. */
export const CATALOGUE: CatalogueItem[] = [
  // Emergency Kits
  { slug: 'roadside-emergency-kit-pro', name: 'Roadside Emergency Kit Pro', category: 'Emergency Kits', art: 'go-bag', price: 89.99, featured: true, addedDaysAgo: 3,
    description: '72-piece roadside kit: heavy-gauge jumper cables, tow strap, reflective triangle, LED flashlight, first aid pouch, rain poncho and work gloves in a zippered trunk bag.' },
  { slug: 'family-72-hour-go-bag', name: 'Family 72-Hour Go Bag (4 Person)', category: 'Emergency Kits', art: 'go-bag', price: 219.0, featured: true, addedDaysAgo: 12,
    description: 'Three days of food bars and water pouches for four people, emergency blankets, hand-crank radio, N95 masks, hygiene kit and a waterproof document pouch in a padded backpack.' },
  { slug: 'compact-car-first-aid-kit', name: 'Compact Car First Aid Kit', category: 'Emergency Kits', art: 'first-aid', price: 24.99, addedDaysAgo: 40,
    description: '120 pieces sized for a glove box: adhesive bandages, gauze, antiseptic wipes, burn gel, trauma shears and a CPR face shield.' },
  { slug: 'winter-vehicle-survival-kit', name: 'Winter Vehicle Survival Kit', category: 'Emergency Kits', art: 'blanket', price: 64.5, addedDaysAgo: 75,
    description: 'For cold-weather breakdowns: collapsible snow shovel, ice scraper, hand warmers, wool blanket, traction mats and a 12-hour emergency candle.' },
  { slug: 'earthquake-preparedness-kit', name: 'Earthquake Preparedness Kit', category: 'Emergency Kits', art: 'go-bag', price: 139.0, inStock: false, addedDaysAgo: 20,
    description: 'Shelter-in-place supplies for two people: 5-year shelf-life water and food, dust masks, work gloves, gas shut-off wrench, whistle and light sticks.' },
  { slug: 'commuter-safety-pouch', name: 'Commuter Safety Pouch', category: 'Emergency Kits', art: 'first-aid', price: 29.99, addedDaysAgo: 5,
    description: 'Slim pouch for a bag or bike: mini first aid kit, emergency blanket, whistle, reflective armband and a 10-hour glow stick.' },
  { slug: 'pet-emergency-kit', name: 'Pet Emergency Kit', category: 'Emergency Kits', art: 'first-aid', price: 44.95, affiliateUrl: amazon('pet emergency kit'), addedDaysAgo: 33,
    description: 'Evacuation essentials for dogs and cats: collapsible bowls, water pouches, slip leash, pet first aid supplies and a waterproof ID card holder.' },

  // Safety Electronics
  { slug: 'dual-channel-dash-cam-4k', name: 'Dual-Channel Dash Cam 4K', category: 'Safety Electronics', art: 'dash-cam', price: 149.99, featured: true, addedDaysAgo: 2,
    affiliateUrl: amazon('dual channel dash cam 4k'),
    description: 'Front 4K and rear 1080p recording with night vision, G-sensor incident lock, parking mode and GPS speed stamp. Evidence when it matters.' },
  { slug: 'smart-smoke-co-alarm', name: 'Smart Smoke & CO Alarm', category: 'Safety Electronics', art: 'smoke-alarm', price: 119.0, addedDaysAgo: 18,
    description: 'Photoelectric smoke and carbon monoxide sensing with phone alerts, a spoken warning that says where the danger is, and a 10-year sealed battery.' },
  { slug: 'carbon-monoxide-detector', name: 'Carbon Monoxide Detector with Display', category: 'Safety Electronics', art: 'co-alarm', price: 34.99, addedDaysAgo: 60,
    description: 'Digital CO readout in parts per million, 85 dB alarm and peak-level memory. Plug-in with battery backup.' },
  { slug: 'personal-safety-alarm', name: 'Personal Safety Alarm Keychain', category: 'Safety Electronics', art: 'personal-alarm', price: 19.99, addedDaysAgo: 9,
    description: '130 dB siren with strobe light, triggered by pulling the pin. Clips to keys or a bag; USB rechargeable.' },
  { slug: 'gps-personal-locator', name: 'GPS Personal Locator with SOS', category: 'Safety Electronics', art: 'personal-alarm', price: 79.0, inStock: false, addedDaysAgo: 27,
    description: 'Pocket tracker that shares live location with family and sends an SOS with coordinates at the press of a button. Works nationwide on LTE-M.' },
  { slug: 'wireless-backup-camera', name: 'Wireless Backup Camera', category: 'Safety Electronics', art: 'dash-cam', price: 99.95, addedDaysAgo: 45,
    description: 'Solar-powered rear camera with a 5-inch dashboard monitor, parking guide lines and IP68 weatherproofing. No wiring through the car.' },
  { slug: 'tire-pressure-monitor', name: 'Tire Pressure Monitoring System', category: 'Safety Electronics', art: 'tire-gauge', price: 54.99, addedDaysAgo: 70,
    description: 'Four cap sensors report pressure and temperature to a solar display, warning of slow leaks before a blowout.' },

  // Safety Gear
  { slug: 'ansi-class-2-safety-vest', name: 'ANSI Class 2 High-Visibility Vest', category: 'Safety Gear', art: 'vest', price: 16.99, featured: true, addedDaysAgo: 14,
    description: 'Fluorescent orange mesh with 2-inch reflective tape, meeting ANSI/ISEA 107 Class 2. Keep one in every car for roadside stops.' },
  { slug: 'reflective-safety-vest-5-pack', name: 'Reflective Safety Vest (5 Pack)', category: 'Safety Gear', art: 'vest', price: 39.99, addedDaysAgo: 50,
    description: 'Five breathable hi-vis vests with zip fronts and pockets, for neighbourhood watch teams, volunteers and crossing guards.' },
  { slug: 'hard-hat-with-ratchet', name: 'Hard Hat with Ratchet Suspension', category: 'Safety Gear', art: 'helmet', price: 27.5, addedDaysAgo: 90,
    description: 'ANSI Z89.1 Type I Class E helmet with a six-point ratchet suspension and a sweat band. Rated to 20,000 volts.' },
  { slug: 'cut-resistant-work-gloves', name: 'Cut-Resistant Work Gloves', category: 'Safety Gear', art: 'gloves', price: 14.99, addedDaysAgo: 36,
    description: 'ANSI A4 cut protection with a nitrile-coated grip, for clearing glass or debris after a collision.' },
  { slug: 'anti-fog-safety-goggles', name: 'Anti-Fog Safety Goggles', category: 'Safety Gear', art: 'goggles', price: 12.95, addedDaysAgo: 66,
    description: 'Indirect-vent goggles with an anti-fog, anti-scratch polycarbonate lens. Fit over prescription glasses.' },
  { slug: 'n95-respirator-masks-20', name: 'N95 Respirator Masks (20 Pack)', category: 'Safety Gear', art: 'mask', price: 24.99, addedDaysAgo: 24,
    description: 'NIOSH-approved N95 masks for wildfire smoke and dust, with an adjustable nose clip and head straps.' },
  { slug: 'emergency-whistle-2-pack', name: 'Emergency Whistle (2 Pack)', category: 'Safety Gear', art: 'whistle', price: 9.99, addedDaysAgo: 80,
    description: 'Pealess 120 dB whistles that work wet or frozen, on breakaway lanyards. Three blasts means help.' },
  { slug: 'car-escape-tool', name: 'Car Escape Tool', category: 'Safety Gear', art: 'glass-breaker', price: 11.99, featured: true, addedDaysAgo: 7,
    description: 'Spring-loaded window breaker and shielded seatbelt cutter on a keychain. Out of a submerged or burning car in seconds.' },
  { slug: 'reflective-rain-jacket', name: 'Reflective Rain Jacket', category: 'Safety Gear', art: 'vest', price: 59.0, inStock: false, addedDaysAgo: 95,
    description: 'Waterproof, breathable shell in hi-vis yellow with 360-degree reflective banding and a packable hood.' },

  // Emergency Electronics
  { slug: 'hand-crank-weather-radio', name: 'Hand-Crank NOAA Weather Radio', category: 'Emergency Electronics', art: 'radio', price: 49.99, featured: true, addedDaysAgo: 10,
    affiliateUrl: amazon('hand crank noaa weather radio'),
    description: 'AM/FM/NOAA receiver with automatic weather alerts, powered by hand crank, solar panel or battery. Charges a phone and doubles as a flashlight.' },
  { slug: 'portable-power-station-300', name: 'Portable Power Station 300Wh', category: 'Emergency Electronics', art: 'power-bank', price: 279.0, featured: true, addedDaysAgo: 4,
    description: 'Lithium battery with AC, USB-C and 12 V outlets that keeps a phone, router and CPAP running through an outage. Solar input.' },
  { slug: 'solar-power-bank-20000', name: 'Solar Power Bank 20,000 mAh', category: 'Emergency Electronics', art: 'power-bank', price: 39.99, addedDaysAgo: 16,
    description: 'Rugged, water-resistant battery pack with a solar panel and built-in LED light. Charges a phone about four times.' },
  { slug: 'tactical-led-flashlight', name: 'Tactical LED Flashlight', category: 'Emergency Electronics', art: 'flashlight', price: 29.95, addedDaysAgo: 30,
    description: '1,200-lumen aluminium flashlight with zoom, strobe and SOS modes. Rechargeable, IPX6 rated.' },
  { slug: 'rechargeable-camping-lantern', name: 'Rechargeable Camping Lantern', category: 'Emergency Electronics', art: 'lantern', price: 32.99, addedDaysAgo: 55,
    description: 'Collapsible 500-lumen lantern with three brightness levels and up to 48 hours of light. Also a USB power bank.' },
  { slug: 'led-headlamp-2-pack', name: 'LED Headlamp (2 Pack)', category: 'Emergency Electronics', art: 'headlamp', price: 21.99, addedDaysAgo: 42,
    description: 'Hands-free light for tire changes at night: 300 lumens, red night mode and a motion-sensor switch.' },
  { slug: 'portable-jump-starter', name: 'Portable Jump Starter 2000A', category: 'Emergency Electronics', art: 'jump-starter', price: 109.99, addedDaysAgo: 21,
    affiliateUrl: amazon('portable jump starter 2000a'),
    description: 'Starts petrol engines up to 8 L without another car. Spark-proof smart clamps, USB charging and a work light.' },
  { slug: 'two-way-radios-4-pack', name: 'Two-Way Radios (4 Pack)', category: 'Emergency Electronics', art: 'radio', price: 69.99, inStock: false, addedDaysAgo: 85,
    description: 'FRS walkie-talkies with 22 channels, NOAA weather alerts and up to 35 miles range in open terrain. Keeps a family in touch when phones are down.' },

  // Medical Supplies
  { slug: 'trauma-first-aid-kit', name: 'Trauma First Aid Kit', category: 'Medical Supplies', art: 'first-aid', price: 74.99, featured: true, addedDaysAgo: 6,
    description: 'Bleeding-control kit with a windlass tourniquet, pressure bandage, hemostatic gauze, chest seals, gloves and trauma shears in a MOLLE pouch.' },
  { slug: 'windlass-tourniquet', name: 'Windlass Tourniquet', category: 'Medical Supplies', art: 'tourniquet', price: 29.99, addedDaysAgo: 13,
    description: 'One-handed tourniquet with a metal windlass rod and time-marking tab. Stop the bleed until help arrives.' },
  { slug: 'israeli-pressure-bandage', name: 'Emergency Pressure Bandage 6"', category: 'Medical Supplies', art: 'bandage', price: 8.49, addedDaysAgo: 48,
    description: 'Sterile 6-inch compression bandage with an integrated pressure bar and closure clip.' },
  { slug: 'mylar-emergency-blankets-10', name: 'Mylar Emergency Blankets (10 Pack)', category: 'Medical Supplies', art: 'blanket', price: 13.99, addedDaysAgo: 58,
    description: 'Reflects up to 90% of body heat to help prevent hypothermia and shock. Each folds to pocket size.' },
  { slug: 'cpr-face-shield-keychain', name: 'CPR Face Shield Keychain', category: 'Medical Supplies', art: 'mask', price: 7.99, addedDaysAgo: 63,
    description: 'One-way valve barrier for rescue breaths, in a keyring pouch with gloves and an antiseptic wipe.' },
  { slug: 'burn-care-kit', name: 'Burn Care Kit', category: 'Medical Supplies', art: 'bandage', price: 26.5, addedDaysAgo: 38,
    description: 'Hydrogel burn dressings in several sizes, cooling gel, non-stick pads and conforming gauze.' },
  { slug: 'digital-forehead-thermometer', name: 'Digital Forehead Thermometer', category: 'Medical Supplies', art: 'thermometer', price: 22.99, addedDaysAgo: 72,
    description: 'Non-contact infrared reading in one second with a fever colour alert and 32-reading memory.' },
  { slug: 'emergency-water-pouches-60', name: 'Emergency Drinking Water (60 Pouches)', category: 'Medical Supplies', art: 'water', price: 49.95, addedDaysAgo: 26,
    description: 'US Coast Guard approved 4.2 oz water pouches with a 5-year shelf life. Enough for several people for 72 hours.' },
  { slug: 'emergency-food-bars-3600', name: 'Emergency Food Ration Bars 3600 kcal', category: 'Medical Supplies', art: 'food', price: 12.99, addedDaysAgo: 52,
    description: 'Nine pre-measured 400-calorie bars with a 5-year shelf life. Non-thirst provoking, lemon flavoured.' },

  // Traffic Control
  { slug: 'led-road-flares-3-pack', name: 'LED Road Flares (3 Pack)', category: 'Traffic Control', art: 'flare', price: 34.99, featured: true, addedDaysAgo: 8,
    affiliateUrl: amazon('led road flares'),
    description: 'Nine flash patterns visible for a mile, magnetic base and crush-proof shell. Safer than incendiary flares; batteries included.' },
  { slug: 'reflective-warning-triangle-3', name: 'Reflective Warning Triangles (3 Pack)', category: 'Traffic Control', art: 'triangle', price: 27.99, addedDaysAgo: 15,
    description: 'DOT-compliant folding triangles with weighted bases that stay upright in wind. Set at 10, 100 and 200 feet behind a stopped vehicle.' },
  { slug: 'traffic-cones-18-inch-4', name: 'Traffic Cones 18" (4 Pack)', category: 'Traffic Control', art: 'cone', price: 45.0, addedDaysAgo: 34,
    description: 'Fluorescent orange PVC cones with 6-inch reflective collars, for marking hazards and closing a lane at a scene.' },
  { slug: 'collapsible-traffic-cones', name: 'Collapsible Traffic Cones (2 Pack)', category: 'Traffic Control', art: 'cone', price: 32.99, addedDaysAgo: 44,
    description: 'Pop-up cones that fold flat to fit under a car seat, with LED tops that flash at night.' },
  { slug: 'stop-slow-paddle', name: 'STOP/SLOW Traffic Paddle', category: 'Traffic Control', art: 'stop-paddle', price: 38.5, addedDaysAgo: 68,
    description: '18-inch MUTCD-compliant high-intensity reflective paddle on a 6-foot pole, for flaggers and school crossings.' },
  { slug: 'folding-road-barricade', name: 'Folding Road Barricade', category: 'Traffic Control', art: 'barricade', price: 129.0, inStock: false, addedDaysAgo: 100,
    description: 'Type I plastic barricade with reflective sheeting and two warning lights. Folds flat for storage.' },
  { slug: 'lighted-traffic-wand', name: 'Lighted Traffic Wand', category: 'Traffic Control', art: 'flashlight', price: 18.99, addedDaysAgo: 28,
    description: '21-inch orange LED baton with steady and flashing modes, for directing traffic at night or in smoke.' },
];
