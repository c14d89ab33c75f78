// Module `NibLoading`: see Package.swift for its role.
