// The plan parser: a plan that reads is validated, and its JSON reads back as the same plan.
import Foundation
import FuzzSupport
import RizqImport

runFuzzer { input in
    guard let plan = try? ImportPlan(json: Data(input), file: "fuzz.plan.json") else { return }
    _ = try? plan.validate(file: "fuzz.plan.json")
    guard let written = try? plan.jsonData() else { return }
    let again = try? ImportPlan(json: written)
    require(again == plan, "a plan's JSON does not read back as the same plan")
}
