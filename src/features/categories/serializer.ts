// Category output; `service_id_list` echoes the linked service ids, sorted ascending.
import type { Category } from "../../db/schema";
import { customDataOut } from "../../http/custom-data";
import { timestampsOut } from "../../http/serialize";

export interface CategoryWithServices {
  category: Category;
  serviceIds: number[];
}

export function toCategoryJson({ category, serviceIds }: CategoryWithServices, timeZone: string) {
  const { id, title, parent_id, custom_data } = category;
  return {
    id,
    title,
    parent_id,
    custom_data: customDataOut(custom_data, timeZone),
    service_id_list: serviceIds,
    ...timestampsOut(category, timeZone),
  };
}
