import type { CatalogRecord, Scalar } from '../bundle.types.js';
import type { BundleTemplate } from './template.js';

interface ProductSpec {
  id: string;
  name: string;
  category: string;
  brand: string;
  price: number;
  rating: number;
  description: string;
  colours: string[];
  sizes: string[];
  /** Size/colour combinations that are sold out, as `colour/size`. */
  soldOut?: string[];
  /** Sizes that cost more than the base price (e.g. large tents). */
  surcharge?: Record<string, number>;
  /** The price before the current sale (the product is on sale when set). */
  was?: number;
  bestseller?: boolean;
}

/** One record per product; its variants are every colour × size with a SKU, price and stock flag. */
function product(spec: ProductSpec): CatalogRecord {
  const variants: Array<Record<string, Scalar>> = [];
  for (const colour of spec.colours) {
    for (const size of spec.sizes) {
      variants.push({
        sku: `${spec.id.toUpperCase()}-${colour.slice(0, 3).toUpperCase()}-${size.replace(/\s+/g, '').toUpperCase()}`,
        colour,
        size,
        price: Math.round((spec.price + (spec.surcharge?.[size] ?? 0)) * 100) / 100,
        in_stock: !(spec.soldOut ?? []).includes(`${colour}/${size}`),
      });
    }
  }
  return {
    id: spec.id,
    name: spec.name,
    category: spec.category,
    brand: spec.brand,
    price: spec.price,
    ...(spec.was ? { compare_at_price: spec.was } : {}),
    on_sale: spec.was !== undefined,
    bestseller: spec.bestseller === true,
    currency: 'USD',
    rating: spec.rating,
    description: spec.description,
    colours: spec.colours.join(', '),
    sizes: spec.sizes.join(', '),
    url: `https://shop.example.com/products/${spec.id}`,
    variants,
  };
}

const APPAREL = ['XS', 'S', 'M', 'L', 'XL'];
const SHOES = ['7', '8', '9', '10', '11', '12'];

const PRODUCTS: ProductSpec[] = [
  {
    id: 'trail-runner-2',
    name: 'Trail Runner 2 Running Shoe',
    category: 'Footwear',
    brand: 'Northpeak',
    price: 119,
    rating: 4.6,
    description: 'Lightweight trail running shoe with a grippy lugged outsole, rock plate and breathable mesh upper. 8 mm drop.',
    colours: ['Black', 'Olive', 'Coral'],
    sizes: SHOES,
    soldOut: ['Coral/12', 'Olive/7'],
    bestseller: true,
  },
  {
    id: 'road-runner',
    name: 'Road Runner Running Shoe',
    category: 'Footwear',
    brand: 'Urbanwalk',
    price: 89,
    rating: 4.4,
    description: 'Cushioned road running shoe for everyday miles, with a breathable knit upper and a durable rubber outsole.',
    colours: ['Black', 'Blue', 'White'],
    sizes: SHOES,
    soldOut: ['Blue/12'],
    was: 99,
  },
  {
    id: 'city-sneaker',
    name: 'City Knit Sneaker',
    category: 'Footwear',
    brand: 'Urbanwalk',
    price: 79,
    rating: 4.3,
    description: 'Everyday knit sneaker with a cushioned recycled-foam midsole. Machine washable.',
    colours: ['White', 'Grey', 'Navy'],
    sizes: SHOES,
    was: 95,
  },
  {
    id: 'summit-hiking-boot',
    name: 'Summit Waterproof Hiking Boot',
    category: 'Footwear',
    brand: 'Northpeak',
    price: 189,
    rating: 4.8,
    description: 'Full-grain leather mid-cut boot with a waterproof membrane and Vibram sole for multi-day hikes.',
    colours: ['Brown', 'Black'],
    sizes: SHOES,
    soldOut: ['Black/11'],
  },
  {
    id: 'recovery-slide',
    name: 'Recovery Slide',
    category: 'Footwear',
    brand: 'Urbanwalk',
    price: 35,
    rating: 4.1,
    description: 'Soft contoured slide for after a run or around the house.',
    colours: ['Black', 'Sand'],
    sizes: SHOES,
  },
  {
    id: 'merino-base-tee',
    name: 'Merino Base Layer Tee',
    category: 'Tops',
    brand: 'Woolcraft',
    price: 65,
    rating: 4.7,
    description: '100% merino wool short-sleeve tee. Naturally odour resistant and temperature regulating.',
    colours: ['Black', 'Navy', 'Heather Grey'],
    sizes: APPAREL,
    bestseller: true,
  },
  {
    id: 'organic-cotton-tee',
    name: 'Organic Cotton Crew Tee',
    category: 'Tops',
    brand: 'Greenthread',
    price: 22,
    rating: 4.4,
    description: 'Midweight organic cotton crew neck with a relaxed fit.',
    colours: ['White', 'Black', 'Sage', 'Burgundy'],
    sizes: APPAREL,
    soldOut: ['Sage/XS'],
  },
  {
    id: 'quarter-zip-fleece',
    name: 'Quarter-Zip Fleece Pullover',
    category: 'Tops',
    brand: 'Northpeak',
    price: 59,
    rating: 4.5,
    description: 'Warm recycled polyester grid fleece with a quarter zip and thumb loops.',
    colours: ['Navy', 'Forest', 'Charcoal'],
    sizes: APPAREL,
    bestseller: true,
    was: 69,
  },
  {
    id: 'linen-shirt',
    name: 'Linen Button-Down Shirt',
    category: 'Tops',
    brand: 'Greenthread',
    price: 54,
    rating: 4.2,
    description: 'Breathable European linen shirt for warm days, garment washed for softness.',
    colours: ['White', 'Sky Blue', 'Sand'],
    sizes: APPAREL,
  },
  {
    id: 'storm-shell-jacket',
    name: 'Storm Shell Rain Jacket',
    category: 'Outerwear',
    brand: 'Northpeak',
    price: 229,
    rating: 4.7,
    description: '3-layer waterproof breathable shell with pit zips and a helmet-compatible hood.',
    colours: ['Red', 'Black', 'Teal'],
    sizes: APPAREL,
    soldOut: ['Red/M'],
    bestseller: true,
  },
  {
    id: 'down-puffer',
    name: 'Featherlight Down Puffer',
    category: 'Outerwear',
    brand: 'Northpeak',
    price: 179,
    rating: 4.6,
    description: '800-fill responsibly sourced down jacket that packs into its own pocket.',
    colours: ['Black', 'Olive', 'Burgundy'],
    sizes: APPAREL,
    was: 219,
  },
  {
    id: 'softshell-vest',
    name: 'Softshell Vest',
    category: 'Outerwear',
    brand: 'Woolcraft',
    price: 89,
    rating: 4.0,
    description: 'Wind-resistant softshell vest with a brushed lining and zip hand pockets.',
    colours: ['Charcoal', 'Navy'],
    sizes: APPAREL,
  },
  {
    id: 'trail-shorts',
    name: 'Trail Shorts 7"',
    category: 'Bottoms',
    brand: 'Northpeak',
    price: 45,
    rating: 4.4,
    description: 'Quick-dry stretch shorts with a zip pocket and a built-in liner.',
    colours: ['Black', 'Olive', 'Slate'],
    sizes: APPAREL,
  },
  {
    id: 'hiking-pants',
    name: 'Convertible Hiking Pants',
    category: 'Bottoms',
    brand: 'Northpeak',
    price: 85,
    rating: 4.3,
    description: 'Zip-off legs, UPF 50 fabric and articulated knees for long days on the trail.',
    colours: ['Khaki', 'Grey'],
    sizes: ['28', '30', '32', '34', '36'],
  },
  {
    id: 'everyday-jogger',
    name: 'Everyday Jogger',
    category: 'Bottoms',
    brand: 'Urbanwalk',
    price: 49,
    rating: 4.5,
    description: 'Soft French terry jogger with a tapered leg and deep pockets.',
    colours: ['Black', 'Heather Grey', 'Navy'],
    sizes: APPAREL,
    was: 59,
  },
  {
    id: 'daypack-22',
    name: 'Daypack 22L',
    category: 'Bags',
    brand: 'Northpeak',
    price: 95,
    rating: 4.6,
    description: '22-litre hiking daypack with a ventilated back panel, hydration sleeve and rain cover.',
    colours: ['Black', 'Orange', 'Teal'],
    sizes: ['One size'],
    bestseller: true,
  },
  {
    id: 'commuter-backpack',
    name: 'Commuter Laptop Backpack',
    category: 'Bags',
    brand: 'Urbanwalk',
    price: 110,
    rating: 4.5,
    description: 'Water-resistant 26L backpack with a padded 16" laptop compartment and luggage pass-through.',
    colours: ['Black', 'Grey'],
    sizes: ['One size'],
  },
  {
    id: 'packable-tote',
    name: 'Packable Tote',
    category: 'Bags',
    brand: 'Greenthread',
    price: 24,
    rating: 4.2,
    description: 'Ripstop tote that folds into its own pocket; carries up to 15 kg.',
    colours: ['Sand', 'Black', 'Sage'],
    sizes: ['One size'],
  },
  {
    id: 'trail-tent-2p',
    name: 'Trail 2-Person Backpacking Tent',
    category: 'Camping',
    brand: 'Northpeak',
    price: 329,
    rating: 4.7,
    description: 'Freestanding two-door tent, 1.6 kg trail weight, with a full-coverage fly.',
    colours: ['Green', 'Grey'],
    sizes: ['2P', '3P'],
    surcharge: { '3P': 70 },
  },
  {
    id: 'down-sleeping-bag',
    name: 'Alpine Down Sleeping Bag',
    category: 'Camping',
    brand: 'Northpeak',
    price: 279,
    rating: 4.8,
    description: 'Mummy bag rated to -7 °C with 650-fill down and a draft collar.',
    colours: ['Blue'],
    sizes: ['Regular', 'Long'],
    surcharge: { Long: 30 },
  },
  {
    id: 'insulated-bottle',
    name: 'Insulated Steel Bottle',
    category: 'Accessories',
    brand: 'Woolcraft',
    price: 32,
    rating: 4.7,
    description: 'Double-wall vacuum bottle: cold for 24 hours, hot for 12.',
    colours: ['Black', 'White', 'Coral', 'Teal'],
    sizes: ['500 ml', '750 ml', '1 l'],
    surcharge: { '750 ml': 4, '1 l': 8 },
    bestseller: true,
  },
  {
    id: 'merino-beanie',
    name: 'Merino Rib Beanie',
    category: 'Accessories',
    brand: 'Woolcraft',
    price: 28,
    rating: 4.6,
    description: 'Soft ribbed merino beanie that does not itch.',
    colours: ['Black', 'Mustard', 'Navy', 'Burgundy'],
    sizes: ['One size'],
  },
  {
    id: 'hiking-socks-3pack',
    name: 'Hiking Socks (3-pack)',
    category: 'Accessories',
    brand: 'Woolcraft',
    price: 36,
    rating: 4.8,
    description: 'Cushioned merino-blend crew socks with a seamless toe. Three pairs.',
    colours: ['Grey', 'Black'],
    sizes: ['S', 'M', 'L'],
    bestseller: true,
  },
  {
    id: 'trekking-poles',
    name: 'Carbon Trekking Poles',
    category: 'Accessories',
    brand: 'Northpeak',
    price: 129,
    rating: 4.5,
    description: 'Pair of collapsible carbon poles with cork grips, 460 g the pair.',
    colours: ['Black'],
    sizes: ['110-130 cm', '120-140 cm'],
    was: 149,
  },
  {
    id: 'sun-cap',
    name: 'UPF 50 Sun Cap',
    category: 'Accessories',
    brand: 'Greenthread',
    price: 26,
    rating: 4.3,
    description: 'Lightweight quick-dry cap with a removable neck cape.',
    colours: ['Sand', 'White', 'Olive'],
    sizes: ['S/M', 'L/XL'],
  },
  {
    id: 'headlamp-400',
    name: 'Headlamp 400',
    category: 'Camping',
    brand: 'Northpeak',
    price: 49,
    rating: 4.4,
    description: '400-lumen rechargeable headlamp with red night mode and IPX4 rating.',
    colours: ['Black', 'Orange'],
    sizes: ['One size'],
    was: 59,
  },
];

export const SHOPPING_ASSISTANT_TEMPLATE: BundleTemplate = {
  id: 'shopping-assistant',
  name: 'Shopping assistant',
  description:
    'Runtime v1 store assistant for an outdoor apparel shop: searches a 25-product catalog with sizes and colours, reads budgets, sizes and colours from messages, asks for a budget on gift requests, refuses card numbers.',
  runtime: 'v1',
  bundle: {
    schema_version: 1,
    name: 'Shopping assistant',
    welcome_message:
      "Hi, I'm the Northpeak store assistant. Tell me what you're shopping for — and your budget — and I'll find options in your size.",
    welcome_suggestions: ['Waterproof jacket under $250', 'Trail running shoes in size 10', 'A gift for a hiker under $50'],
    persona:
      'You are a friendly, knowledgeable outdoor-store assistant. Recommend at most three products, mention the price and whether the requested size or colour is in stock, and never invent products that are not in the catalog.',
    model: { provider: 'builtin', temperature: 0.3, max_output_tokens: 400 },
    intents: [
      {
        name: 'product_search',
        examples: [
          'I need a rain jacket',
          'show me running shoes',
          'do you have merino t-shirts',
          'looking for a backpack for my laptop',
          'what tents do you sell',
          'I want hiking boots in size 9',
          'show me your bestsellers',
          'what is on sale',
          'anything cheaper?',
          'do you have it in blue',
          'something for rainy days',
          'something warm for winter',
        ],
      },
      {
        name: 'gift_ideas',
        examples: [
          'gift for my dad who hikes',
          'what is a good present for a runner',
          'birthday gift ideas',
          'something for a camping friend',
          'stocking stuffer ideas',
          'gifts under $50',
          'do you offer gift wrapping',
        ],
      },
      {
        name: 'sizing_help',
        examples: [
          'what size should I get',
          'do your shoes run small',
          'size chart for jackets',
          'is the fleece true to size',
          'I am between a medium and a large',
          'help me find my size',
          'show me the size chart',
        ],
      },
      {
        name: 'order_status',
        examples: [
          'where is my order',
          'track my package',
          'my order has not arrived',
          'when will my order ship',
          'order status for 10023',
        ],
      },
      {
        name: 'returns',
        examples: [
          'how do I return something',
          'can I exchange for a different size',
          'what is your return policy',
          'I want a refund',
          'the item is damaged',
        ],
      },
      {
        name: 'shipping',
        examples: [
          'how much is shipping',
          'do you ship to Canada',
          'how long does delivery take',
          'is there free shipping',
          'express delivery options',
        ],
      },
    ],
    parameters: [
      {
        code: 'budget',
        title: 'Budget (USD)',
        type: 'number',
        pattern: '(?:under|below|less than|up to|max(?:imum)?|no more than|budget(?: of| is)?)\\s*\\$?\\s*(\\d+(?:\\.\\d+)?)',
      },
      { code: 'size', title: 'Size', type: 'string', pattern: '\\bsize\\s+(xxs|xs|s|m|l|xl|xxl|\\d{1,2}(?:\\.5)?)\\b' },
      {
        code: 'colour',
        title: 'Colour',
        type: 'string',
        pattern: '\\b(black|white|navy|grey|gray|olive|red|teal|coral|sand|burgundy|green|blue|orange|brown|khaki)\\b',
      },
      { code: 'quantity', title: 'Quantity', type: 'number', pattern: '\\b(\\d{1,4})\\s*(?:pieces|pcs|units|pairs|items)\\b' },
      {
        code: 'is_gift',
        title: 'Gift purchase',
        type: 'boolean',
        pattern:
          '\\b(?:(?:gift|present)s?\\s+(?:for|ideas?|under|below)|(?:a|some|any)\\s+(?:gift|present)s?\\s*(?:$|[.?!,]|for\\b|ideas?\\b)|stocking stuffers?)',
      },
      // Shop policies: a question about one gets the policy as the reply (a respond rule per topic below).
      { code: 'asks_shipping', title: 'Asks about shipping', type: 'boolean', pattern: '\\b(?:shipping|ship|ships|delivery|deliver)\\b' },
      {
        code: 'asks_returns',
        title: 'Asks about returns',
        type: 'boolean',
        pattern: "\\b(?:returns?|refunds?|exchange|money back|does not fit|doesn't fit)\\b",
      },
      {
        code: 'asks_sizing',
        title: 'Asks about sizing',
        type: 'boolean',
        pattern: '\\b(?:size chart|size guide|my size|what size|which size|run (?:small|large|big)|true to size)\\b',
      },
      { code: 'asks_gift_wrap', title: 'Asks about gift wrapping', type: 'boolean', pattern: '\\bgift[ -]?wrap' },
      {
        code: 'asks_order_change',
        title: 'Asks to change an order',
        type: 'boolean',
        pattern: '\\b(?:change|update)\\s+(?:my|the)\\s+(?:address|order)',
      },
    ],
    tools: [
      {
        code: 'catalog_search',
        type: 'catalog_search',
        collection: 'products',
        title_field: 'name',
        fields: ['name', 'category', 'brand', 'description', 'price', 'colours', 'sizes', 'rating', 'url'],
        max_results: 3,
        intents: ['product_search', 'gift_ideas', 'sizing_help'],
      },
    ],
    collections: { products: PRODUCTS.map(product) },
    rules: [
      {
        code: 'bulk_order',
        when: { param: 'quantity', op: '>', value: 50 },
        action: 'block',
        message:
          'Orders of more than 50 units go through our team sales desk: email teams@shop.example.com and we will send a quote within one business day.',
      },
      {
        code: 'gift_needs_budget',
        when: { param: 'is_gift', op: '=', value: true },
        action: 'ask',
        message: 'Happy to help with a gift! Roughly how much would you like to spend, and what does the person enjoy doing outdoors?',
        asking_for: ['budget'],
      },
      {
        code: 'budget_too_low',
        when: { param: 'budget', op: '<', value: 20 },
        action: 'respond',
        message:
          'Our lowest-priced items start at about $22 (organic cotton tees and packable totes). Would one of those work, or can you stretch the budget a little?',
      },
      {
        code: 'premium_budget',
        when: { param: 'budget', op: '>=', value: 300 },
        action: 'respond',
        message:
          'With that budget you can look at our premium gear — the Trail 2-Person Tent and the Storm Shell jacket are customer favourites.',
      },
      {
        code: 'shipping_policy',
        when: { param: 'asks_shipping', op: '=', value: true },
        action: 'respond',
        message:
          'Shipping is free on orders over $75 (otherwise $6.95) and takes 3–5 business days; express (1–2 days) is $15. We ship to the US, Canada, the UK and the EU.',
      },
      {
        code: 'returns_policy',
        when: { param: 'asks_returns', op: '=', value: true },
        action: 'respond',
        message:
          'You can return or exchange unworn items within 30 days: start a return at shop.example.com/returns with your order number. Exchanges for another size are free, and refunds reach your card 5–7 business days after we receive the item.',
      },
      {
        code: 'sizing_guide',
        when: { param: 'asks_sizing', op: '=', value: true },
        action: 'respond',
        message:
          'Our size chart is at shop.example.com/size-chart. Apparel is true to size; our shoes run about half a size small, so size up if you are between sizes. Tell me the product and your usual size and I will check stock.',
      },
      {
        code: 'gift_wrap',
        when: { param: 'asks_gift_wrap', op: '=', value: true },
        action: 'respond',
        message:
          'Yes — add gift wrapping at checkout for $5 per item, with a handwritten note if you like. Prices are left off the packing slip.',
      },
      {
        code: 'order_change',
        when: { param: 'asks_order_change', op: '=', value: true },
        action: 'respond',
        message:
          'Orders can be changed until they ship (usually within 24 hours): reply to your order confirmation email or write to help@shop.example.com with the order number and the new address.',
      },
    ],
    guardrails: [
      {
        code: 'payment_card',
        patterns: ['\\b(?:\\d[ -]?){13,16}\\b', '\\bcvv\\b'],
        message: "Please don't share card numbers or security codes in chat. Payment happens only on our secure checkout page.",
      },
      {
        code: 'prompt_injection',
        patterns: [
          'ignore (?:all |any )?(?:previous|prior|above) instructions',
          'you are now (?:dan|an? unrestricted)',
          'reveal (?:your|the) (?:system )?prompt',
        ],
        message: 'I can only help with shopping at our store — what are you looking for today?',
      },
      {
        code: 'abuse',
        patterns: ['\\b(?:idiot|stupid bot|shut up)\\b'],
        message: "I'm here to help. Let's keep things friendly — what can I find for you?",
      },
    ],
    followups: {
      default: ['Show me bestsellers', 'What is on sale?', 'Help me find my size'],
      intents: {
        product_search: ['Show it in another colour', 'Anything cheaper?', 'Is it in stock in my size?'],
        gift_ideas: ['Gifts under $50', 'Gifts for runners', 'Do you offer gift wrapping?'],
        sizing_help: ['Show me the size chart', 'Do the shoes run small?', 'Can I exchange if it does not fit?'],
        order_status: ['How long does delivery take?', 'Can I change my address?'],
        returns: ['Start a return', 'How long do refunds take?'],
        shipping: ['Is there free shipping?', 'Do you ship internationally?'],
      },
    },
  },
};
