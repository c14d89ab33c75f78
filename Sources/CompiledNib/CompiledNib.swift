// Module `CompiledNib`: see Package.swift for its role.
