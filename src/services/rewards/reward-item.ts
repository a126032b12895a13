import type { Product, Variant } from '../../spaceis/schemas.js';
import type { OfferReader } from '../catalog.js';
import { readItemRef } from '../offer-search.js';
import { shortRef } from '../short-ref.js';
import type { RewardItem } from './types.js';

/**
 * The product (and variant) an admin chose in `/shop-admin rewards add`: a suggestion's reference
 * (`p:<s>.<c>.<p>`, as `/shop item:` uses), or a product's exact name. `variant` is a variant's short
 * reference or exact name within that product. Every server of the license is searched, hidden ones too.
 */
export async function findRewardItem(
  reader: OfferReader,
  productInput: string,
  variantInput: string | null,
): Promise<{ kind: 'found'; item: RewardItem } | { kind: 'no-product' } | { kind: 'no-variant'; productName: string }> {
  const product = await findProduct(reader, productInput);
  if (!product) return { kind: 'no-product' };
  const item: RewardItem = { productId: product.product.id, serverName: product.serverName, productName: product.product.name };
  if (!variantInput?.trim()) return { kind: 'found', item };
  const { variants } = await reader.variants(product.serverId, product.categoryId, product.product.id);
  const variant = findVariant(variants, variantInput);
  if (!variant) return { kind: 'no-variant', productName: product.product.name };
  return { kind: 'found', item: { ...item, variantId: variant.id, variantName: variant.name } };
}

interface FoundProduct {
  serverId: string;
  serverName: string;
  categoryId: string;
  product: Product;
}

async function findProduct(reader: OfferReader, input: string): Promise<FoundProduct | undefined> {
  const refs = readItemRef(input);
  const servers = (await reader.servers()).filter((server) => !refs || shortRef(server.id) === refs.server);
  const wanted = input.trim().toLowerCase();
  const byName: FoundProduct[] = [];
  for (const server of servers) {
    const offer = await reader.server(server.id);
    for (const category of offer.categories) {
      if (refs && shortRef(category.id) !== refs.category) continue;
      for (const product of category.products) {
        const found = { serverId: server.id, serverName: server.name, categoryId: category.id, product };
        if (refs ? shortRef(product.id) === refs.product : product.name.toLowerCase() === wanted) byName.push(found);
      }
    }
  }
  // A typed name names a product only when no other product has it.
  return byName.length === 1 ? byName[0] : undefined;
}

function findVariant(variants: readonly Variant[], input: string): Variant | undefined {
  const typed = input.trim();
  const byRef = variants.find((variant) => shortRef(variant.id) === typed);
  if (byRef) return byRef;
  const named = variants.filter((variant) => variant.name.toLowerCase() === typed.toLowerCase());
  return named.length === 1 ? named[0] : undefined;
}
